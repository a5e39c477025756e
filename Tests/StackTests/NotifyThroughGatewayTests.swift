import Contracts
import Foundation
import HuddleKit
import ProviderStandIns
import ServiceKitTesting
import Testing

/// Notifications as the apps get them, through the gateway with HuddleKit, pushed to the
/// stand-in's APNs and FCM: a manager's new team game reaches each member's phone and inbox, a waitlisted
/// cricketer is told when a player drops out, and a reminder comes an hour before kickoff.
@Suite("Notifications through the gateway", .serialized)
struct NotifyThroughGatewayTests {
    @Test(
        "a team game reaches each member's iPhone or Android phone and inbox; a promoted cricketer is told; a reminder comes before kickoff",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func pushesAndReminders(store: TestStore) async throws {
        try await withPushStandIns { pushSettings, standInURL, _ in
            var config = [
                "notify.push.poll.ms": "20",
                "notify.reminders.poll.ms": "50",
            ]
            config.merge(pushSettings) { _, new in new }
            let standIn = TestClient(baseURL: standInURL)
            try await StackTests.withStack(store: store, config: config) { gateway in
                let manager = try await StackTests.player(gateway, "Mia Manager")
                let ana = try await StackTests.player(gateway, "Ana"), ben = try await StackTests.player(gateway, "Ben")
                var phones: [String: String] = [:]
                for (name, app) in [("ana", ana), ("ben", ben)] {
                    let token = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
                    let device = try await app.registerForPush(apnsToken: token, environment: .sandbox)
                    phones[name] = device.token
                    #expect(device.token == token.map { String(format: "%02x", $0) }.joined())
                }
                let cleo = try await StackTests.player(gateway, "Cleo")
                let android = "cleo-pixel:APA91b\(UUID().uuidString.prefix(8))"
                #expect(try await cleo.registerForPush(fcmToken: android).platform == .fcm)
                let team = try await manager.send(
                    CatalogAPI.createTeam,
                    body: CreateTeamRequest(
                        name: "Kadriorg Cricket Club", sport: .cricket, privacy: .public, location: Location(lat: 59.438, lng: 24.792),
                        ageGroup: .adult, gender: .coed, skill: .any))
                for app in [ana, ben, cleo] { _ = try await app.send(CatalogAPI.joinTeam, team.id) }
                // Games learns the members from catalog's events before the game invites them.
                try await Task.sleep(for: .milliseconds(500))
                let teamGame = try await manager.send(
                    GamesAPI.createGame,
                    body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date().addingTimeInterval(7 * 86_400).wholeSeconds))
                for (name, app) in [("ana", ana), ("ben", ben)] {
                    let push = try #require(try await standIn.pushes("apns", to: phones[name]!, reaching: 1).first)
                    #expect(push.payload.contains("New game: Kadriorg Cricket Club"))
                    let inbox = try await app.send(NotifyAPI.inbox)
                    #expect(inbox.items.first?.data.gameId == teamGame.id && inbox.unreadCount == 1)
                    // The icon's badge is the unread inbox.
                    #expect(push.payload.contains("\"badge\":1"), "\(push.payload)")
                }
                let cleosPush = try #require(try await standIn.pushes("fcm", to: android, reaching: 1).first)
                #expect(cleosPush.payload.contains("New game: Kadriorg Cricket Club"))
                #expect(cleosPush.payload.contains("\"notification_count\":1"), "\(cleosPush.payload)")
                #expect(try await cleo.send(NotifyAPI.inbox).items.first?.data.gameId == teamGame.id)

                // A pickup game with two places: Mia (organising) and Ana go, Ben waits; Ana drops out.
                // Kickoff is a little more than an hour ahead, so the reminder an hour before comes twenty
                // seconds later, after the joins below have reached notify (at ten seconds, with sixteen
                // stacks on two cores, Ben's place now and then reached notify after the reminder went).
                let pickup = try await manager.send(
                    GamesAPI.createGame,
                    body: CreateGameRequest(
                        kind: .pickup, startsAt: Date().addingTimeInterval(3600 + 20).wholeSeconds, timeZone: "Europe/Tallinn",
                        location: Location(lat: 59.438, lng: 24.792), sport: .cricket, privacy: .public, ageGroup: .adult, gender: .coed,
                        skill: .any, capacity: 2, description: "Nets at Kadriorg"))
                _ = try await ana.send(GamesAPI.joinGame, pickup.id)
                #expect(try await ben.send(GamesAPI.joinGame, pickup.id).status == .waitlisted)
                _ = try await ana.send(GamesAPI.setStatus, pickup.id, body: SetRosterStatusRequest(status: .notGoing))
                let benPushes = try await standIn.pushes("apns", to: phones["ben"]!, reaching: 3)
                let texts = benPushes.map(\.payload)
                #expect(texts.contains { $0.contains("A place freed up in Nets at Kadriorg") })
                let reminder = try #require(benPushes.first { $0.payload.contains("Nets at Kadriorg starts soon") })
                #expect(reminder.payload.contains("\"interruption-level\":\"time-sensitive\""))
                #expect(reminder.headers["apns-priority"] == "10")
                // Ana left: no reminder for her.
                try await Task.sleep(for: .milliseconds(300))
                #expect(!(try await standIn.pushes("apns", to: phones["ana"]!)).contains { $0.payload.contains("starts soon") })
            }
        }
    }

    @Test(
        "a team game moved to another day, then cancelled, reaches everyone on its roster who has not said no, with the old and new time",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func movedAndCancelled(store: TestStore) async throws {
        try await Self.withTeam(store, "Moving Mallards", players: ["Ana Going", "Ben Undecided", "Cid Declined"]) {
            standIn, manager, team, players, phones in
            let (ana, cid) = (players[0], players[2])
            let start = Date().addingTimeInterval(7 * 86_400).wholeSeconds
            let game = try await manager.send(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: start, timeZone: "Europe/Tallinn"))
            _ = try await ana.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going))
            _ = try await cid.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .notGoing))
            // Each phone has its new-game push first.
            for phone in phones { _ = try await standIn.pushes("apns", to: phone, reaching: 1) }

            let later = start.addingTimeInterval(86_400)
            _ = try await manager.send(GamesAPI.updateGame, game.id, body: UpdateGameRequest(startsAt: later))
            for phone in phones.prefix(2) {
                let moved = try #require(try await standIn.pushes("apns", to: phone, reaching: 2).last)
                #expect(moved.payload.contains("Changed: ") && moved.payload.contains("Moved from"), "\(moved.payload)")
                #expect(moved.payload.contains("\"category\":\"gameChanged\""))
            }
            let inbox = try await ana.send(NotifyAPI.inbox).items
            let told = try #require(inbox.first { $0.category == .gameChanged })
            #expect(told.data.gameId == game.id && told.data.startsAt == later && told.data.previousStartsAt == start)

            _ = try await manager.send(GamesAPI.cancelGame, game.id)
            for phone in phones.prefix(2) {
                let cancelled = try #require(try await standIn.pushes("apns", to: phone, reaching: 3).last)
                #expect(cancelled.payload.contains("Cancelled: "), "\(cancelled.payload)")
            }
            // Cid said no: told of neither.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await standIn.pushes("apns", to: phones[2]).count == 1)
        }
    }

    @Test(
        "the organiser reminds the players who have not answered: they are pushed, those who answered are not; again within six hours is 429; a player may not",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func remindNonResponders(store: TestStore) async throws {
        try await Self.withTeam(store, "Reminded Rovers", players: ["Ana Answered", "Ben Silent"]) {
            standIn, manager, team, players, phones in
            let ana = players[0]
            let game = try await manager.send(
                GamesAPI.createGame,
                body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date().addingTimeInterval(3 * 86_400).wholeSeconds))
            _ = try await ana.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going))
            for phone in phones { _ = try await standIn.pushes("apns", to: phone, reaching: 1) }

            #expect(try await manager.remind(game.id).reminded == 1)
            let reminded = try #require(try await standIn.pushes("apns", to: phones[1], reaching: 2).last)
            #expect(reminded.payload.contains("\"category\":\"rsvpReminder\"") && reminded.payload.contains("Are you in?"))
            do {
                _ = try await manager.remind(game.id)
                Issue.record("a second reminder within six hours")
            } catch let error as HuddleError {
                #expect(error.status == 429)
            }
            do {
                _ = try await ana.remind(game.id)
                Issue.record("a player reminded the team")
            } catch let error as HuddleError {
                #expect(error.status == 403)
            }
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await standIn.pushes("apns", to: phones[0]).count == 1, "Ana answered: no reminder")
        }
    }

    @Test(
        "a team message reaches the phone of a member away from the room, not one reading it, not one who muted it unless named, never one who blocked the sender; a burst is folded",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func chatPushes(store: TestStore) async throws {
        try await Self.withTeam(
            store, "Chatty Chamois", players: ["Ana Online", "Ben Muted", "Cid Blocker", "Dee Away"], config: ["notify.chat.quiet.s": "8"]
        ) { standIn, manager, team, players, phones in
            let (ana, ben, cid, dee) = (players[0], players[1], players[2], players[3])
            let room = try await poll {
                try await dee.send(ChatAPI.rooms, query: ChatAPI.roomKind(.team)).items.first { $0.subjectId == team.id.description }
            } until: {
                $0 != nil
            }
            let roomID = try #require(room?.id)
            #expect(try await ben.mute(roomID).muted)
            _ = try await cid.send(ChatAPI.block, try #require(manager.currentUser).id)
            func say(_ text: String, as app: HuddleClient) async throws {
                _ = try await app.send(ChatAPI.send, roomID, body: SendChatMessage(text: text, clientMessageId: UUID().uuidString))
            }
            // Ana opens the room and says hello; once her own message reaches her socket, she is in the room.
            let reading = Frames()
            let readingTask = Task { await reading.follow(ana.liveChat([roomID: 0])) }
            defer { readingTask.cancel() }
            try await say("Hi all", as: ana)
            #expect(try await reading.waitFor(seq: 1), "\(reading)")
            let first = try #require(try await standIn.pushes("apns", to: phones[3], reaching: 1).first)
            #expect(first.payload.contains("\"category\":\"chatMessage\"") && first.payload.contains("Ana Online: Hi all"))
            #expect(first.payload.contains("\"thread-id\":\"\(roomID)\"") && first.headers["apns-collapse-id"] == roomID.description)

            // Within the quiet interval: Dee's next push waits for its end, and tells of both messages.
            try await say("Training at 19:00", as: manager)
            try await say("@Ben Muted bring the balls", as: manager)
            let mention = try #require(try await standIn.pushes("apns", to: phones[1], reaching: 1).first)
            #expect(mention.payload.contains("\"category\":\"mention\"") && mention.payload.contains("bring the balls"))
            let folded = try await standIn.pushes("apns", to: phones[3], reaching: 2)
            #expect(folded.count == 2 && folded[1].payload.contains("@Ben Muted bring the balls (+1 more)"), "\(folded.map(\.payload))")
            #expect(try await reading.waitFor(seq: 3))
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await standIn.pushes("apns", to: phones[0]).isEmpty, "Ana was reading the room")
            #expect(try await standIn.pushes("apns", to: phones[1]).count == 1, "Ben muted the room: only the mention")
            let cids = try await standIn.pushes("apns", to: phones[2])
            #expect(cids.count == 1 && !cids[0].payload.contains("Manager"), "Cid blocked the manager: only Ana's message")
            // The room keeps the messages: the inbox keeps no chat push.
            #expect(try await dee.send(NotifyAPI.inbox).items.allSatisfy { $0.category != .chatMessage && $0.category != .mention })
        }
    }

    @Test(
        "a player who has not answered is asked before the game, and answers Going from the push's token without a session; a token for another game, or forged, is 401",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func answerFromThePush(store: TestStore) async throws {
        // The ask is due two days before kickoff; here kickoff is a week off, and the ask comes five seconds after the game is planned.
        let week = 7 * 86_400.0
        try await Self.withTeam(
            store, "Answering Antelopes", players: ["Ana Answered", "Ben Asked"],
            config: ["notify.rsvp.remind.before.ms": "\(Int((week - 5) * 1000))", "notify.reminders.poll.ms": "50"]
        ) { standIn, manager, team, players, phones in
            let (ana, ben) = (players[0], players[1])
            let game = try await manager.send(
                GamesAPI.createGame,
                body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date().addingTimeInterval(week).wholeSeconds))
            let invitation = try #require(try await standIn.pushes("apns", to: phones[1], reaching: 1).first)
            #expect(invitation.payload.contains("\"category\":\"RSVP\"") && invitation.payload.contains("\"rsvpToken\""))
            _ = try await ana.send(GamesAPI.setStatus, game.id, body: SetRosterStatusRequest(status: .going))

            let asked = try #require(try await standIn.pushes("apns", to: phones[1], reaching: 2).last)
            #expect(asked.payload.contains("\"category\":\"rsvpReminder\"") && asked.payload.contains("\"category\":\"RSVP\""))
            let token = try #require(asked.payload.firstMatch(of: #/"rsvpToken":"([^"]+)"/#).map { String($0.output.1) })
            // The lock screen's app has no session: a client without one answers.
            let lockScreen = StackTests.app(TestClient(baseURL: ben.baseURL.absoluteString))
            try await lockScreen.answer(game.id, rsvpToken: token, status: .going)
            let roster = try await manager.send(GamesAPI.roster, game.id).items
            #expect(roster.first { $0.name == "Ben Asked" }?.status == .going)

            let other = try await manager.send(
                GamesAPI.createGame,
                body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date().addingTimeInterval(2 * week).wholeSeconds))
            for (gameID, forged) in [(other.id, token), (game.id, token.dropLast(3) + "AAA")] {
                do {
                    try await lockScreen.answer(gameID, rsvpToken: String(forged), status: .notGoing)
                    Issue.record("an answer with a token not for this game went through")
                } catch let error as HuddleError {
                    #expect(error.status == 401 && error.problem?.code == "INVALID_TOKEN", "\(error)")
                }
            }
            // Ana answered before the ask: she was never asked.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await !standIn.pushes("apns", to: phones[0]).contains { $0.payload.contains("rsvpReminder") })
        }
    }

    @Test(
        "an Estonian player's new-game push and inbox read Estonian, with the time in the game's zone; an English one's English",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func inTheirLanguage(store: TestStore) async throws {
        try await Self.withTeam(store, "Keelte Klubi", players: ["Eeva Eesti", "Ian English"]) { standIn, manager, team, players, phones in
            let me = try await players[0].send(AuthAPI.updateMe, body: UpdateProfileRequest(locale: "et"))
            #expect(me.locale == "et")
            // Notify learns the language from auth's profile event before the game is planned.
            try await Task.sleep(for: .milliseconds(500))
            let kickoff = Date().addingTimeInterval(5 * 86_400).wholeSeconds
            _ = try await manager.send(
                GamesAPI.createGame, body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: kickoff, timeZone: "Europe/Tallinn"))
            let estonian = try #require(try await standIn.pushes("apns", to: phones[0], reaching: 1).first)
            #expect(estonian.payload.contains("Uus mäng: Keelte Klubi") && estonian.payload.contains("Kas tuled?"), "\(estonian.payload)")
            let english = try #require(try await standIn.pushes("apns", to: phones[1], reaching: 1).first)
            #expect(english.payload.contains("New game: Keelte Klubi"))
            let inbox = try await players[0].send(NotifyAPI.inbox).items
            #expect(inbox.first?.title == "Uus mäng: Keelte Klubi")
            // A locale Huddle does not write reads English; a tag that is no language tag is refused.
            #expect(try await players[1].send(AuthAPI.updateMe, body: UpdateProfileRequest(locale: "fi-FI")).locale == "fi-FI")
            do {
                _ = try await players[1].send(AuthAPI.updateMe, body: UpdateProfileRequest(locale: "not a tag"))
                Issue.record("a locale that is no language tag was taken")
            } catch let error as HuddleError {
                #expect(error.status == 422)
            }
        }
    }

    /// A stack pushing to the stand-ins, and a manager's team that `players` joined, each with an
    /// iPhone: `body` gets the stand-in (to read what each phone received), the manager, the team, the
    /// players and their phones' tokens.
    static func withTeam(
        _ store: TestStore, _ name: String, players names: [String], config more: [String: String] = [:],
        _ body: (TestClient, HuddleClient, Team, [HuddleClient], [String]) async throws -> Void
    ) async throws {
        try await withPushStandIns { pushSettings, standInURL, _ in
            let config = ["notify.push.poll.ms": "20"].merging(pushSettings) { _, new in new }.merging(more) { _, new in new }
            try await StackTests.withStack(store: store, config: config) { gateway in
                let manager = try await StackTests.player(gateway, "\(name) Manager")
                var players: [HuddleClient] = [], phones: [String] = []
                for player in names {
                    let app = try await StackTests.player(gateway, player)
                    let token = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
                    phones.append(try await app.registerForPush(apnsToken: token, environment: .sandbox).token)
                    players.append(app)
                }
                let team = try await manager.send(CatalogAPI.createTeam, body: StackTests.teamRequest(name: name))
                for app in players { _ = try await app.send(CatalogAPI.joinTeam, team.id) }
                // Games learns the members from catalog's events before a game invites them.
                try await Task.sleep(for: .milliseconds(500))
                try await body(TestClient(baseURL: standInURL), manager, team, players, phones)
            }
        }
    }
}
