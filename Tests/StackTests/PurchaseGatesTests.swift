import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceKitTesting
import Testing

/// The unlocks enforced by the services that own them, through the gateway, with
/// `purchases.gates=location,join,leagues`: what a player without them is refused and shown, and
/// how a purchase, a refund, a renewal and an expiry change that.
@Suite("Purchases gates through the gateway")
struct PurchaseGatesTests {
    static let gated = ["purchases.gates": "location,join,leagues"]

    /// A stack with the gates on and purchases trusting the stand-in App Store; `body` gets the
    /// gateway and the stand-in's address.
    static func withGatedStack(
        store: TestStore, adminEmail: String = StackTests.adminEmail, body: (TestClient, TestClient) async throws -> Void
    ) async throws {
        try await PurchasesThroughGatewayTests.withPurchasesStack(store: store, config: gated, adminEmail: adminEmail, body: body)
    }

    /// What StoreKit hands `app` for `product`, submitted; answers its transaction id.
    static func buy(_ product: String, expires: Date? = nil, app: HuddleClient, appStore: TestClient) async throws -> String {
        struct Signed: Decodable {
            let signedTransaction: String
            let transactionId: String
        }
        var fields = ["productId": product, "appAccountToken": try await app.appAccountToken().uuidString]
        fields["expiresDate"] = expires.map { ISO8601DateFormatter().string(from: $0) }
        let signed = try expect(200, try await appStore.raw(.POST, "/test/appstore/transactions", json: fields)).decode(Signed.self)
        _ = try await app.submitPurchase(signedTransaction: signed.signedTransaction)
        return signed.transactionId
    }

    /// The App Store telling Huddle `type` about `transaction`, through the gateway's public route.
    static func appStoreSends(_ type: String, about transaction: String, appStore: TestClient, gateway: TestClient) async throws {
        struct Payload: Decodable { let signedPayload: String }
        let payload = try expect(
            200,
            try await appStore.raw(.POST, "/test/appstore/notifications", json: ["notificationType": type, "transactionId": transaction])
        ).decode(Payload.self).signedPayload
        _ = try expect(200, try await gateway.call(PurchasesAPI.appleNotification, body: AppStoreNotificationBody(signedPayload: payload)))
    }

    /// A public pick-up game next week at `place`, and a public team there, made by `organizer`.
    static func publicGameAndTeam(_ teamName: String, sport: Sport, at place: Location, by organizer: HuddleClient) async throws -> (
        Game, Team
    ) {
        let game = try await pickup(sport, at: place, by: organizer)
        let team = try await organizer.send(
            CatalogAPI.createTeam,
            body: CreateTeamRequest(
                name: teamName, sport: sport, privacy: .public, location: place, ageGroup: .adult, gender: .coed, skill: .any))
        return (game, team)
    }

    static func pickup(_ sport: Sport, at place: Location, by organizer: HuddleClient) async throws -> Game {
        try await organizer.send(
            GamesAPI.createGame,
            body: CreateGameRequest(
                kind: .pickup, startsAt: Date().addingTimeInterval(7 * 86_400), location: place, sport: sport, privacy: .public,
                ageGroup: .adult, gender: .coed, skill: .any, capacity: 10))
    }

    /// The problem a refused call answered.
    static func refusal(_ call: () async throws -> Void) async throws -> Problem? {
        do {
            try await call()
            return nil
        } catch let error as HuddleError {
            return error.problem
        }
    }

    @Test(
        "without location a player sees distance but no place, in search and details, until they buy it; a refund takes it back",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func location(store: TestStore) async throws {
        try await Self.withGatedStack(store: store) { gateway, appStore in
            let olga = try await StackTests.player(gateway, "Olga Organiser"), bo = try await StackTests.player(gateway, "Bo Browser")
            // Near Ballarat, where the demo has nothing: a public pick-up game and a public team 2 km north.
            let here = Coordinates(lat: -37.5622, lng: 143.8503)
            let place = Location(lat: here.lat + 2 / 111.32, lng: here.lng, address: "Victoria Park")
            let (game, team) = try await Self.publicGameAndTeam("Ballarat Boots", sport: .soccer, at: place, by: olga)
            #expect(game.location == place && team.location == place, "the organiser and the manager see their own place")

            let near = Query.place(Coordinates(lat: here.lat, lng: here.lng)) + Query.radiusKm(5)
            /// What Bo is shown: the places in search results and in the game's and team's details, and the game's distance.
            struct Shown {
                var places: [Location?]
                var meters: Int?
            }
            func shownToBo() async throws -> Shown {
                let games = try await bo.send(SearchAPI.games, query: near).items.filter { $0.item.id == game.id }
                let teams = try await bo.send(SearchAPI.teams, query: near).items.filter { $0.item.id == team.id }
                let detail = try await bo.send(GamesAPI.game, game.id, query: Query.position(Coordinates(lat: here.lat, lng: here.lng)))
                let teamDetail = try await bo.send(CatalogAPI.team, team.id)
                return Shown(
                    places: [games.first?.item.location, teams.first?.item.location, detail.location, teamDetail.location],
                    meters: detail.distanceMeters)
            }
            let hidden: [Location?] = [nil, nil, nil, nil], revealed: [Location?] = [place, place, place, place]
            let before = try await poll {
                try await bo.send(SearchAPI.teams, query: near).items
            } until: {
                $0.contains { $0.item.id == team.id }
            }
            #expect(before.first { $0.item.id == team.id }?.item.location == nil)
            let locked = try await shownToBo()
            #expect(locked.places == hidden)
            #expect((1_950...2_050).contains(locked.meters ?? 0), "the distance stays")

            let bought = try await Self.buy("huddle.location", app: bo, appStore: appStore)
            let unlocked = try await poll {
                try await shownToBo().places
            } until: {
                $0 == revealed
            }
            #expect(unlocked == revealed)

            try await Self.appStoreSends("REFUND", about: bought, appStore: appStore, gateway: gateway)
            #expect(try await bo.entitlements().isEmpty)
            let refunded = try await poll(within: .seconds(60)) {
                try await shownToBo().places
            } until: {
                $0 == hidden
            }
            #expect(refunded == hidden)
        }
    }

    @Test(
        "joining and creating a league are refused naming the products; a subscription unlocks both, a renewal keeps, an expiry ends them",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func joinAndLeagues(store: TestStore) async throws {
        try await Self.withGatedStack(store: store) { gateway, appStore in
            let olga = try await StackTests.player(gateway, "Olga Organiser"), bo = try await StackTests.player(gateway, "Bo Joiner")
            let place = Location(lat: -37.60, lng: 143.85)
            let (first, team) = try await Self.publicGameAndTeam("Ballarat Hoops", sport: .basketball, at: place, by: olga)
            let second = try await Self.pickup(.basketball, at: place, by: olga),
                third = try await Self.pickup(.basketball, at: place, by: olga)
            let watched = try await Self.pickup(.basketball, at: place, by: olga)
            let league = CreateLeagueRequest(
                name: "Goldfields League", sport: .basketball, skill: .any, ageGroup: .adult, gender: .coed, privacy: .public)

            let joinProducts = ["huddle.join", "huddle.membership.monthly"]
            for refused in [
                try await Self.refusal { _ = try await bo.send(GamesAPI.joinGame, first.id) },
                try await Self.refusal { _ = try await bo.send(CatalogAPI.joinTeam, team.id) },
            ] {
                #expect(refused?.status == 403 && refused?.code == "ENTITLEMENT_REQUIRED" && refused?.productIds == joinProducts)
            }
            let leagueRefused = try await Self.refusal { _ = try await bo.send(CatalogAPI.createLeague, body: league) }
            #expect(
                leagueRefused?.code == "ENTITLEMENT_REQUIRED"
                    && leagueRefused?.productIds == ["huddle.leagues", "huddle.membership.monthly"])
            // An invitation is the organiser's to give: an invited player answers it without the unlock.
            _ = try await olga.send(GamesAPI.inviteToGame, third.id, body: InviteRequest(userIds: [try await bo.userID]))
            #expect(try await bo.send(GamesAPI.joinGame, third.id).status == .going)

            let month = Date().addingTimeInterval(30 * 86_400)
            let subscription = try await Self.buy("huddle.membership.monthly", expires: month, app: bo, appStore: appStore)
            let joined = try await poll {
                try await Self.refusal { _ = try await bo.send(GamesAPI.joinGame, first.id) }
            } until: {
                $0 == nil
            }
            #expect(joined == nil)
            #expect(try await bo.send(CatalogAPI.joinTeam, team.id).membership == .player)
            #expect(try await bo.send(CatalogAPI.createLeague, body: league).name == "Goldfields League")

            try await Self.appStoreSends("DID_RENEW", about: subscription, appStore: appStore, gateway: gateway)
            let renewed = try #require(try await bo.entitlements().first { $0.entitlement == .join }?.expiresAt)
            #expect(renewed > month.addingTimeInterval(29 * 86_400))

            try await Self.appStoreSends("EXPIRED", about: subscription, appStore: appStore, gateway: gateway)
            #expect(try await bo.entitlements().isEmpty)
            // A join that gets in cannot be asked again, so games' copy is watched through the place of
            // a game Bo takes no part in, which the subscription also unlocked.
            #expect(try await eventually { try await bo.send(GamesAPI.game, watched.id).location == nil })
            let ended = try await Self.refusal { _ = try await bo.send(GamesAPI.joinGame, second.id) }
            #expect(ended?.code == "ENTITLEMENT_REQUIRED")
        }
    }
}
