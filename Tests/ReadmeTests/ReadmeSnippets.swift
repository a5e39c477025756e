import Foundation
import HuddleKit
import Observation

// The README's Swift snippets, compiled as they are written there (`ReadmeTests` checks that each
// one appears here line for line). What they take from the app around them is stubbed below.

struct KeychainTokens: TokenStore {
    func load() async -> StoredSession? { nil }
    func save(_ session: StoredSession?) async {}
}

struct Place {
    var latitude: Double
    var longitude: Double
}

/// A form that shows problems next to its fields.
struct Form {
    func show(_ message: String, at field: String? = nil) {}
}

func signInAndJoin(email: String, password: String, here: Place) async throws {
    let huddle = HuddleClient(baseURL: URL(string: "https://api.huddle.dev")!, tokens: KeychainTokens())
    try await huddle.signIn(email: email, password: password)

    let near = Query.place(Coordinates(lat: here.latitude, lng: here.longitude)) + Query.radiusKm(10) + Query.sport(.volleyball)
    let games = try await huddle.send(SearchAPI.games, query: near).items  // nearest first
    let place = try await huddle.send(GamesAPI.joinGame, games[0].item.id)  // going, or on the waiting list

    for try await team in huddle.pages(CatalogAPI.teams, query: CatalogAPI.teamMember(.me)) { print(team.name) }  // follows nextCursor
    _ = place
}

@MainActor @Observable final class LiveScorecard {
    private(set) var card: Scorecard?
    private(set) var ended: (any Error)?

    func follow(_ round: RoundID, on huddle: HuddleClient) async {
        do {
            for try await message in huddle.liveScorecard(round) {
                card = message.card ?? card.map { $0.applying([message]) }
            }
        } catch {
            ended = error  // the round is not yours, or the session ended
        }
    }
}

func register(on huddle: HuddleClient, email: String, password: String, name: String, form: Form) async throws {
    do {
        try await huddle.register(email: email, password: password, name: name)
    } catch let error as HuddleError where error.is(.validationFailed) {
        for field in error.fieldErrors { form.show(field.message, at: field.field) }
    } catch let error as HuddleError where error.is(.emailTaken) {
        form.show("That email already has an account")
    }
}

/// StoreKit 2's shapes (`Product`, `Product.PurchaseResult`, `VerificationResult`, `Transaction`),
/// which the purchase snippet uses: StoreKit is not on Linux, where this compiles.
enum PurchaseOption: Hashable { case appAccountToken(UUID) }

struct StoreTransaction { func finish() async {} }

enum StoreVerification {
    case verified(StoreTransaction), unverified(StoreTransaction)
    var jwsRepresentation: String { "" }
}

enum StorePurchaseResult { case success(StoreVerification), userCancelled, pending }

struct StoreProduct {
    func purchase(options: Set<PurchaseOption>) async throws -> StorePurchaseResult { .pending }
}

/// What the app unlocks on screen.
struct Unlocks { func show(_ entitlements: [EntitlementGrant]) {} }

func buy(_ product: StoreProduct, on huddle: HuddleClient, unlocks: Unlocks) async throws {
    let token = try await huddle.appAccountToken()
    let result = try await product.purchase(options: [.appAccountToken(token)])
    if case .success(let verification) = result, case .verified(let transaction) = verification {
        let entitlements = try await huddle.submitPurchase(signedTransaction: verification.jwsRepresentation)
        await transaction.finish()
        unlocks.show(entitlements)
    }
}

/// Where the app offers what unlocks a refused action.
struct Paywall { func offer(_ productIds: [String]) {} }

func join(_ gameID: GameID, on huddle: HuddleClient, paywall: Paywall) async throws {
    do {
        _ = try await huddle.send(GamesAPI.joinGame, gameID)
    } catch let error as HuddleError where error.problem?.code == "ENTITLEMENT_REQUIRED" {
        paywall.offer(error.problem?.productIds ?? [])
    }
}

/// `ASAuthorizationAppleIDCredential`'s fields the sign-in snippet reads (AuthenticationServices is not on Linux).
struct AppleIDCredential {
    var identityToken: Data?
    var authorizationCode: Data?
    var fullName: PersonNameComponents?
}

func signInWithApple(_ credential: AppleIDCredential, rawNonce: String, on huddle: HuddleClient) async throws -> SessionUser {
    let user = try await huddle.signInWithApple(
        identityToken: String(decoding: credential.identityToken ?? Data(), as: UTF8.self),
        authorizationCode: credential.authorizationCode.map { String(decoding: $0, as: UTF8.self) },
        rawNonce: rawNonce,
        name: AppleSignInRequest.Name(givenName: credential.fullName?.givenName, familyName: credential.fullName?.familyName))
    return user
}

func deleteAccount(on huddle: HuddleClient, password: String) async throws {
    try await huddle.deleteAccount(password: password)
}

func exportMyData(on huddle: HuddleClient) async throws -> URL? {
    let export = try await huddle.exportMyData()
    let file = try export.documentFile()  // a JSON file to hand to a ShareLink
    return file
}

func reportMessage(_ message: ChatMessage, on huddle: HuddleClient) async throws {
    try await huddle.report(.message(message.id), reason: .harassment, block: true)
}

/// What an app's tracer gives for its current span.
struct AppSpan { let traceparent: String }

func placeTraced(_ picks: [TicketPick], span: AppSpan, on huddle: HuddleClient) async throws -> Ticket {
    let ticket = try await HuddleClient.$traceparent.withValue(span.traceparent) {
        try await huddle.send(BettingAPI.placeTicket, body: PlaceTicket(stake: 1000, selections: picks, share: true))
    }
    // catch let error as HuddleError: error.traceID is the trace to look up (Jaeger, or the stand-in's /test/traces/{id})
    return ticket
}

func resetFlow(email: String, huddle: HuddleClient) async throws {
    try await huddle.forgotPassword(email: email)  // then: "If it has an account, a link is on its way"

    // .onOpenURL { url in … }, for https://huddle.dev/reset?token=…
    func finishReset(from link: URL, newPassword: String, on huddle: HuddleClient) async throws {
        let items = URLComponents(url: link, resolvingAgainstBaseURL: false)?.queryItems ?? []
        guard let token = items.first(where: { $0.name == "token" })?.value else { return }
        try await huddle.resetPassword(token: token, newPassword: newPassword)  // signed in; a used or expired link is INVALID_TOKEN
    }
}

func photos(
    huddle: HuddleClient, email: String, password: String, cameraJPEG: Data, logoPNG: Data, photo1: Data, photo2: Data, teamID: TeamID,
    roomID: RoomID
) async throws {
    try await huddle.register(email: email, password: password, name: "Pia", picture: cameraJPEG)  // or later:
    let me = try await huddle.setProfilePicture(cameraJPEG)  // me.picture?.small, .medium, .large; me.pictureUrl is medium
    let team = try await huddle.setLogo(logoPNG, contentType: .png, ofTeam: teamID)  // team.logo
    let message = try await huddle.sendPhotos([photo1, photo2], text: "Our new kit", to: roomID)  // up to four
    let bytes = try await huddle.chatPhoto(message.attachments![0], size: "large")  // a member's token
    _ = (me, team, bytes)
}

#if canImport(UserNotifications)
    import UserNotifications

    func registerAnswers() {
        let going = UNNotificationAction(identifier: RosterStatus.going.rawValue, title: "Going")
        let maybe = UNNotificationAction(identifier: RosterStatus.maybe.rawValue, title: "Maybe")
        let notGoing = UNNotificationAction(identifier: RosterStatus.notGoing.rawValue, title: "Not going", options: [.destructive])
        UNUserNotificationCenter.current().setNotificationCategories([
            UNNotificationCategory(identifier: "RSVP", actions: [going, maybe, notGoing], intentIdentifiers: [])
        ])
    }
#endif

func answer(_ action: String, userInfo: [AnyHashable: Any], on huddle: HuddleClient) async throws {
    guard let status = RosterStatus(rawValue: action), let token = userInfo["rsvpToken"] as? String,
        let game = (userInfo["gameId"] as? String).flatMap(GameID.init)
    else { return }
    try await huddle.answer(game, rsvpToken: token, status: status)  // INVALID_TOKEN once the game has started
}

struct Banner { func show(_ text: String) {} }

func playOffline(courseID: CourseID, roundID: RoundID, player: RoundPlayerID, banner: Banner) async throws -> Scorecard {
    let device = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask)[0].appendingPathComponent("Huddle")
    let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0].appendingPathComponent("Huddle")
    let huddle = HuddleClient(
        baseURL: URL(string: "https://api.huddle.dev")!, tokens: KeychainTokens(),
        keptReads: KeptReads(directory: caches, capacityBytes: 20 << 20),
        queuedWrites: QueuedWrites(file: device.appendingPathComponent("queued-writes.json")))

    // Read at the car park, the course opens in the forest: the kept copy, marked stale.
    let course = try await huddle.read(CatalogAPI.course, courseID)
    if course.isStale { banner.show("No signal — as of \(course.savedAt.formatted(date: .omitted, time: .shortened))") }

    // Each score goes into the queue: sent at once with signal, kept on the phone without (across restarts).
    try await huddle.queue(GamesAPI.score, roundID, body: ScoreUpdate(playerId: player, hole: 7, strokes: 3))
    try await huddle.queue(GamesAPI.clearScore, roundID, player, 8)  // a hole scored by mistake

    // When the path monitor sees the network again, and when the app starts:
    for outcome in await huddle.sendQueuedWrites() {
        if case .refused(let write, let error) = outcome { banner.show("Not saved: \(error) (\(write.operation))") }
    }
    let card = try await huddle.read(GamesAPI.round, roundID).value  // the card every phone ends on
    return card
}
