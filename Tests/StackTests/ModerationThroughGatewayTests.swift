import Contracts
import Foundation
import NIOWebSocket
import ServiceKitTesting
import Testing

/// Players report what is abusive and moderators decide, through the gateway.
/// Serialized: each test runs a whole stack, and the suite's many stacks at once crowded the others
/// on two cores into timeouts.
@Suite("Reports and moderation through the gateway", .serialized)
struct ModerationThroughGatewayTests {
    @Test(
        "each kind of subject can be reported once by whoever sees it; hidden ones are not; a moderator works the queue oldest first, decides once, and the reporter and the owner are told",
        arguments: StackTests.stores)
    func reportsReachModerators(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let troll = try await gateway.register(name: "Troll \(suffix)"), ann = try await gateway.register(name: "Ann \(suffix)")
            let ben = try await gateway.register(name: "Ben \(suffix)"), mia = try await gateway.register(name: "Mia Moderator \(suffix)")

            // What the troll writes and makes: a message in the global room, a team, a league, a game; and a private team.
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: troll.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "you all stink \(suffix)", clientMessageId: "stink-\(suffix)"),
                token: troll.accessToken)
            let team = try await StackTests.volleyballTeam("Nasty public \(suffix)", by: troll, through: gateway)
            let hiddenTeam = try await StackTests.volleyballTeam("Nasty private \(suffix)", privacy: .private, by: troll, through: gateway)
            let league = try await StackTests.volleyballLeague("Nasty League \(suffix)", by: troll, through: gateway)
            let game = try await gateway.value(
                GamesAPI.createGame, body: StackTests.pickupGame(description: "nasty game \(suffix)"), token: troll.accessToken)

            func report(_ type: SubjectType, _ id: UUID, by player: Session, block: Bool? = nil) async throws -> TestClient.Response {
                try await gateway.call(
                    ModerationAPI.report,
                    body: ReportRequest(
                        subject: .init(type: type, id: SubjectID(id)), reason: .harassment, note: "from \(player.user.name)", block: block),
                    token: player.accessToken)
            }
            let first = try expect(201, try await report(.message, said.id.uuid, by: ann, block: true)).decode(Report.self)
            #expect(first.status == .open && first.subject.type == .message)
            #expect(try expect(200, try await report(.message, said.id.uuid, by: ann)).decode(Report.self).id == first.id)
            _ = try expect(201, try await report(.message, said.id.uuid, by: ben))
            for (type, id) in [
                (SubjectType.user, troll.user.id.uuid), (.team, team.id.uuid), (.league, league.id.uuid), (.game, game.id.uuid),
            ] {
                _ = try expect(201, try await report(type, id, by: ann))
            }
            // What Ann cannot see, or what does not exist, cannot be reported.
            #expect(try await report(.team, hiddenTeam.id.uuid, by: ann).status == 404)
            #expect(try await report(.message, UUID(), by: ann).status == 404)
            // Reporting with block: true blocked the troll for Ann.
            #expect(try await gateway.value(ChatAPI.blocks, token: ann.accessToken).items.map(\.userId) == [troll.user.id])
            #expect(try await gateway.value(ModerationAPI.myReports, token: ann.accessToken).items.count == 5)

            // Only moderators see the queue; an administrator makes Mia one.
            #expect(try await gateway.call(ModerationAPI.cases, token: mia.accessToken).status == 403)
            #expect(try await gateway.call(ModerationAPI.grantModerator, mia.user.id, token: ann.accessToken).status == 403)
            _ = try await gateway.value(ModerationAPI.grantModerator, mia.user.id, token: admin.accessToken)
            let queue = try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: mia.accessToken).items
            let mine = queue.filter { $0.content.ownerId == troll.user.id }
            #expect(mine.map(\.subject.type) == [.message, .user, .team, .league, .game])
            let messageCase = try #require(mine.first)
            #expect(
                messageCase.reportCount == 2 && messageCase.reasons == [.harassment]
                    && messageCase.content.text == "you all stink \(suffix)")
            #expect(messageCase.context?.contains { $0.id.uuid == said.id.uuid } == false)
            #expect(Set(messageCase.notes) == ["from Ann \(suffix)", "from Ben \(suffix)"])

            // Two moderators decide the message's case at once: one does, the other is told it is closed.
            let warn = CaseActionRequest(action: .warn, reason: "Insults in the global room")
            async let byMia = gateway.call(ModerationAPI.act, messageCase.id, body: warn, token: mia.accessToken)
            async let byAdmin = gateway.call(ModerationAPI.act, messageCase.id, body: warn, token: admin.accessToken)
            let statuses = try await [byMia.status, byAdmin.status].sorted()
            #expect(statuses == [200, 409])
            let decided = try await gateway.value(
                ModerationAPI.cases, query: ModerationAPI.caseStatus(.closed) + Query.limit(100), token: mia.accessToken
            ).items
                .first { $0.id == messageCase.id }
            #expect(decided?.actions.map(\.action) == [.warn] && decided?.status == .closed)
            // The team's case shows the warning in the owner's history.
            let teamCase = try #require(
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: mia.accessToken).items.first {
                    $0.subject.id.uuid == team.id.uuid
                })
            #expect(teamCase.ownerHistory.map(\.action) == [.warn])
            _ = try await gateway.value(
                ModerationAPI.act, teamCase.id, body: CaseActionRequest(action: .dismiss, reason: "A fair name"), token: mia.accessToken)
            let suspendWithoutEnd = try await gateway.call(
                ModerationAPI.act, mine[1].id, body: CaseActionRequest(action: .suspend, reason: "x"), token: mia.accessToken)
            #expect(suspendWithoutEnd.status == 422)
            // What reporters and moderators write is held to the rule for typed text: a NUL (a 500 on
            // PostgreSQL before) is refused, and the field named.
            let controlReason = try await gateway.call(
                ModerationAPI.act, mine[1].id, body: CaseActionRequest(action: .warn, reason: "bad\u{0}reason"), token: mia.accessToken)
            #expect(controlReason.status == 422 && controlReason.problem?.errors?.map(\.field) == ["reason"], "\(controlReason.status)")
            let controlNote = try await gateway.call(
                ModerationAPI.report, body: ReportRequest(subject: .player(troll.user.id), reason: .spam, note: "a\u{0}b"),
                token: ann.accessToken)
            #expect(controlNote.status == 422 && controlNote.problem?.errors?.map(\.field) == ["note"], "\(controlNote.status)")

            // Reporters learn the outcome; the troll learns of the warning.
            let told = try await poll {
                try await gateway.value(NotifyAPI.inbox, token: ben.accessToken).items.filter { $0.category == .moderation }
            } until: {
                !$0.isEmpty
            }
            #expect(told.first?.body.contains("warned") == true)
            let warned = try await poll {
                try await gateway.value(NotifyAPI.inbox, token: troll.accessToken).items.filter { $0.category == .moderation }
            } until: {
                !$0.isEmpty
            }
            #expect(warned.first?.body.contains("Insults in the global room") == true)
            let outcomes = try await gateway.value(ModerationAPI.myReports, token: ann.accessToken).items
            #expect(outcomes.first { $0.subject.type == .message }?.status == .actioned)
            #expect(outcomes.first { $0.subject.type == .team }?.status == .dismissed)
        }
    }

    @Test(
        "after the configured number of distinct reporters a message is withheld, in history and on live sockets, until a moderator decides; a dismissal brings it back; a player is marked hidden on the case",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func hiddenAfterReporters(store: TestStore) async throws {
        try await StackTests.withStack(store: store, config: ["moderation.hide.after": "2"]) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let troll = try await gateway.register(name: "Loud Troll \(suffix)")
            let one = try await gateway.register(name: "One \(suffix)"), two = try await gateway.register(name: "Two \(suffix)")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: one.accessToken).items.first { $0.kind == .global })
            let loud = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "loud \(suffix)", clientMessageId: "loud-\(suffix)"),
                token: troll.accessToken)
            let phone = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: two.accessToken)
            try phone.send(ChatClientFrame.subscribe(global.id))
            #expect(try await phone.waitFor { $0.type == .subscribed })
            func shown() async throws -> ChatMessage? {
                try await gateway.value(
                    ChatAPI.messages, global.id, query: ChatAPI.messagesAfter(loud.seq - 1) + Query.limit(5), token: two.accessToken
                )
                .items.first { $0.id == loud.id }
            }

            var hidden: [Bool] = []
            for player in [one, two] {
                for subject in [ReportSubject.message(loud.id), .player(troll.user.id)] {
                    _ = try await gateway.value(
                        ModerationAPI.report, body: ReportRequest(subject: subject, reason: .spam), token: player.accessToken)
                }
                let found = try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                    $0.subject == .player(troll.user.id)
                }
                hidden.append(found?.hidden ?? false)
            }
            #expect(hidden == [false, true])

            // The second reporter withholds the message: an edit on the socket, and no text in history.
            #expect(try await phone.waitFor { $0.type == .edited && $0.message?.id == loud.id && $0.message?.hidden == true })
            let withheld = try #require(try await shown())
            #expect(withheld.hidden == true && withheld.text.isEmpty && withheld.deleted == nil)

            // A moderator finds nothing wrong: the message is back as it was.
            let messageCase = try #require(
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                    $0.subject == .message(loud.id)
                })
            #expect(messageCase.hidden)
            _ = try await gateway.value(
                ModerationAPI.act, messageCase.id, body: CaseActionRequest(action: .dismiss, reason: "Loud, not abusive"),
                token: admin.accessToken)
            #expect(try await phone.waitFor { $0.type == .edited && $0.message?.text == "loud \(suffix)" && $0.message?.hidden == nil })
            #expect(try await shown()?.text == "loud \(suffix)")
        }
    }

    @Test(
        "a removed message is a tombstone in history and on live sockets; a suspended player's sessions and sockets end, sign-in answers ACCOUNT_SUSPENDED with the end and their messages go; a ban has no end",
        arguments: StackTests.stores)
    func decisionsAreCarriedOut(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let email = "troll-\(suffix)@example.com"
            let troll = try await gateway.register(name: "Troll \(suffix)", email: email),
                ann = try await gateway.register(name: "Ann \(suffix)")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: ann.accessToken).items.first { $0.kind == .global })
            func say(_ text: String, as player: Session) async throws -> ChatMessage {
                try await gateway.value(
                    ChatAPI.send, global.id, body: SendChatMessage(text: text, clientMessageId: UUID().uuidString),
                    token: player.accessToken)
            }
            let nasty = try await say("nasty one \(suffix)", as: troll), other = try await say("nasty two \(suffix)", as: troll)
            let fine = try await say("fine \(suffix)", as: ann)
            let phone = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: ann.accessToken)
            let trollsPhone = try await ChatSocket.connect(baseURL: gateway.baseURL, chatToken: troll.accessToken)
            try phone.send(ChatClientFrame.subscribe(global.id))
            #expect(try await phone.waitFor { $0.type == .subscribed })

            func caseAbout(_ type: SubjectType, _ id: UUID) async throws -> ModerationCase {
                _ = try await gateway.value(
                    ModerationAPI.report, body: ReportRequest(subject: .init(type: type, id: SubjectID(id)), reason: .hate),
                    token: ann.accessToken)
                return try #require(
                    try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                        $0.subject.id.uuid == id
                    })
            }
            let messageCase = try await caseAbout(.message, nasty.id.uuid)
            _ = try await gateway.value(
                ModerationAPI.act, messageCase.id, body: CaseActionRequest(action: .remove, reason: "Hate speech"), token: admin.accessToken
            )
            #expect(try await phone.waitFor { $0.type == .deleted && $0.id == nasty.id })
            func history() async throws -> [ChatMessage] {
                try await gateway.value(
                    ChatAPI.messages, global.id, query: ChatAPI.messagesAfter(nasty.seq - 1) + Query.limit(10), token: ann.accessToken
                ).items
            }
            let removed = try #require(try await history().first { $0.id == nasty.id })
            #expect(removed.deleted == true && removed.text.isEmpty)

            // Suspended for an hour, with every message: the sessions end, sign-in says until when.
            let until = Date().addingTimeInterval(3600)
            let playerCase = try await caseAbout(.user, troll.user.id.uuid)
            _ = try await gateway.value(
                ModerationAPI.act, playerCase.id,
                body: CaseActionRequest(action: .suspend, reason: "Repeated hate", until: until, removeMessages: true),
                token: admin.accessToken)
            let refused = try await poll {
                try await gateway.call(AuthAPI.me, token: troll.accessToken).status
            } until: {
                $0 == 401
            }
            #expect(refused == 401)
            // Their open socket closes too: the session it was opened with has ended.
            let closedWith = try await poll {
                trollsPhone.closedWith
            } until: {
                $0 != nil
            }
            #expect(closedWith == .policyViolation)
            let signIn = try await gateway.call(AuthAPI.login, body: LoginRequest(email: email, password: "correct horse battery"))
            let problem = try signIn.decode(Problem.self)
            #expect(signIn.status == 403 && problem.code == "ACCOUNT_SUSPENDED")
            #expect(abs((problem.until ?? .distantPast).timeIntervalSince(until)) < 1)
            let after = try await poll {
                try await history()
            } until: {
                $0.first { $0.id == other.id }?.deleted == true
            }
            #expect(after.first { $0.id == fine.id }?.deleted != true)

            // Reported again by someone else, the player is banned: no end.
            let cy = try await gateway.register(name: "Cy \(suffix)")
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .init(type: .user, id: SubjectID(troll.user.id.uuid)), reason: .hate),
                token: cy.accessToken)
            let again = try #require(
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                    $0.subject.id.uuid == troll.user.id.uuid
                })
            #expect(again.ownerHistory.map(\.action) == [.suspend, .remove])
            _ = try await gateway.value(
                ModerationAPI.act, again.id, body: CaseActionRequest(action: .ban, reason: "Back at it"), token: admin.accessToken)
            let banned = try await poll {
                try await gateway.call(AuthAPI.login, body: LoginRequest(email: email, password: "correct horse battery")).decode(
                    Problem.self)
            } until: {
                $0.title == "Account banned"
            }
            #expect(banned.code == "ACCOUNT_SUSPENDED" && banned.until == nil)
            await phone.close()
        }
    }

    @Test("reports released together keep to the hourly limit: of 40 at once, 30 are made, the rest 429", arguments: StackTests.stores)
    func reportLimitUnderConcurrency(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let reporter = try await gateway.register(name: "Eager Reporter")
            let reported = try await Array(0..<40).asyncMap { index in try await gateway.register(name: "Reported \(index)") }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for player in reported {
                    group.addTask {
                        try await gateway.call(
                            ModerationAPI.report, body: ReportRequest(subject: .player(player.user.id), reason: .spam),
                            token: reporter.accessToken
                        ).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 30, "\(statuses.sorted())")
            #expect(statuses.filter { $0 == 429 }.count == 10, "\(statuses.sorted())")
            let mine = try await gateway.value(ModerationAPI.myReports, query: Query.limit(100), token: reporter.accessToken)
            #expect(mine.items.count == 30)
        }
    }

    @Test(
        "moderators are told of a new case; past the response time it is overdue", StackTests.embeddedOnly)
    func moderatorsAreToldAndOverdueCasesShow() async throws {
        try await StackTests.withStack(store: .sqlite, config: ["moderation.response.ms": "300"]) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let mia = try await gateway.register(name: "Mia Moderator"), troll = try await gateway.register(name: "Quiet Troll")
            let ann = try await gateway.register(name: "Ann Reporter")
            _ = try await gateway.value(ModerationAPI.grantModerator, mia.user.id, token: admin.accessToken)
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .player(troll.user.id), reason: .spam), token: ann.accessToken)
            let told = try await poll {
                try await gateway.value(NotifyAPI.inbox, token: mia.accessToken).items.filter { $0.category == .moderation }
            } until: {
                !$0.isEmpty
            }
            #expect(told.first?.title == "New report" && told.first?.body.contains("spam") == true)
            let overdue = try await poll {
                try await gateway.value(ModerationAPI.cases, query: ModerationAPI.overdue(true), token: mia.accessToken).items
            } until: {
                !$0.isEmpty
            }
            #expect(overdue.map(\.subject) == [.player(troll.user.id)])
        }
    }

    // The filter reads nothing from a store: one store is enough.
    @Test(
        "the word filter refuses a filtered word in a name or a description with CONTENT_REFUSED naming the field, and masks it in chat",
        arguments: [StackTests.stores[0]])
    func wordFilter(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            func refused(_ response: TestClient.Response, field: String) throws -> Bool {
                let problem = try response.decode(Problem.self)
                return response.status == 422 && problem.code == "CONTENT_REFUSED" && problem.errors?.map(\.field) == [field]
            }
            let signUp = try await gateway.call(
                AuthAPI.register,
                body: RegisterRequest(
                    email: "filtered-\(UUID().uuidString.prefix(6))@example.com", password: "correct horse battery", name: "Sh1t Head"))
            #expect(try refused(signUp, field: "name"))
            let player = try await gateway.register(name: "Clean Player")
            #expect(
                try refused(
                    try await gateway.call(AuthAPI.updateMe, body: UpdateProfileRequest(name: "Fucking Legend"), token: player.accessToken),
                    field: "name"))
            let team = try await gateway.call(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Cunt Club", sport: .volleyball, privacy: .public, location: Location(lat: 59.43, lng: 24.75), ageGroup: .adult,
                    gender: .coed, skill: .any),
                token: player.accessToken)
            #expect(try refused(team, field: "name"))
            let league = try await gateway.call(
                CatalogAPI.createLeague,
                body: CreateLeagueRequest(
                    name: "Bitch League", sport: .volleyball, skill: .any, ageGroup: .adult, gender: .coed, privacy: .public),
                token: player.accessToken)
            #expect(try refused(league, field: "name"))
            let game = try await gateway.call(
                GamesAPI.createGame, body: StackTests.pickupGame(description: "no bastards allowed"), token: player.accessToken)
            #expect(try refused(game, field: "description"))
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: player.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "well sh1t, Scunthorpe lost", clientMessageId: UUID().uuidString),
                token: player.accessToken)
            #expect(said.text == "well ****, Scunthorpe lost")
        }
    }

    @Test(
        "a removed team is hidden from everyone but its manager, in lists and search too; a game enough players reported is hidden until a moderator dismisses the case",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func hiddenSubjects(store: TestStore) async throws {
        try await StackTests.withStack(store: store, config: ["moderation.hide.after": "2"]) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let troll = try await gateway.register(name: "Troll \(suffix)"), ann = try await gateway.register(name: "Ann \(suffix)")
            let ben = try await gateway.register(name: "Ben \(suffix)")
            let here = Location(lat: 59.4 + Double.random(in: 0..<0.05), lng: 24.7)
            let team = try await StackTests.volleyballTeam("Vile \(suffix)", at: here, by: troll, through: gateway)
            var request = StackTests.pickupGame(description: "vile game \(suffix)")
            request.location = here
            let game = try await gateway.value(GamesAPI.createGame, body: request, token: troll.accessToken)
            let near = Query.place(Coordinates(lat: here.lat, lng: here.lng)) + Query.radiusKm(1) + Query.limit(100)
            _ = try await poll {
                try await gateway.value(SearchAPI.teams, query: near, token: ann.accessToken).items
            } until: {
                $0.contains { $0.item.id == team.id }
            }

            func caseAbout(_ subject: ReportSubject) async throws -> ModerationCase {
                try #require(
                    try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items.first {
                        $0.subject == subject
                    })
            }
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .team(team.id), reason: .hate), token: ann.accessToken)
            _ = try await gateway.value(
                ModerationAPI.act, try await caseAbout(.team(team.id)).id,
                body: CaseActionRequest(action: .remove, reason: "A hateful name"),
                token: admin.accessToken)
            #expect(
                try await poll {
                    try await gateway.call(CatalogAPI.team, team.id, token: ann.accessToken).status
                } until: {
                    $0 == 404
                } == 404)
            let managersView = try await gateway.value(CatalogAPI.team, team.id, token: troll.accessToken)
            #expect(managersView.hidden == true)
            #expect(
                try await gateway.value(CatalogAPI.teams, query: CatalogAPI.teamText("vile \(suffix)"), token: ann.accessToken).items
                    .isEmpty)
            let searched = try await poll {
                try await gateway.value(SearchAPI.teams, query: near, token: ann.accessToken).items
            } until: {
                !$0.contains { $0.item.id == team.id }
            }
            #expect(!searched.contains { $0.item.id == team.id })

            // Two reporters hide the game until a moderator looks; dismissed, it is back.
            for reporter in [ann, ben] {
                _ = try await gateway.value(
                    ModerationAPI.report, body: ReportRequest(subject: .game(game.id), reason: .spam), token: reporter.accessToken)
            }
            #expect(
                try await poll {
                    try await gateway.call(GamesAPI.game, game.id, token: ann.accessToken).status
                } until: {
                    $0 == 404
                } == 404)
            #expect(try await gateway.value(GamesAPI.game, game.id, token: troll.accessToken).hidden == true)
            let gameCase = try await caseAbout(.game(game.id))
            #expect(gameCase.hidden)
            _ = try await gateway.value(
                ModerationAPI.act, gameCase.id, body: CaseActionRequest(action: .dismiss, reason: "A normal game"), token: admin.accessToken
            )
            #expect(
                try await poll {
                    try await gateway.call(GamesAPI.game, game.id, token: ann.accessToken).status
                } until: {
                    $0 == 200
                } == 200)
        }
    }

    @Test(
        "a deleted player's reports stay for the audit trail under a pseudonym; the open cases about them close with the removal on record, and no case keeps their name or words",
        arguments: StackTests.stores)
    func deletedPlayers(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let suffix = UUID().uuidString.prefix(6).lowercased()
            let admin = try await StackTests.administrator(gateway)
            let leaving = try await gateway.register(name: "Leaving \(suffix)"), troll = try await gateway.register(name: "Troll \(suffix)")
            let reporter = try await gateway.register(name: "Reporter \(suffix)")
            let global = try #require(
                try await gateway.value(ChatAPI.rooms, token: reporter.accessToken).items.first { $0.kind == .global })
            let words = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "mean words \(suffix)", clientMessageId: UUID().uuidString),
                token: leaving.accessToken)
            let reply = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "a reply \(suffix)", clientMessageId: UUID().uuidString),
                token: troll.accessToken)
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .player(troll.user.id), reason: .spam, note: "note by \(suffix)"),
                token: leaving.accessToken)
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .player(leaving.user.id), reason: .spam), token: reporter.accessToken)
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .init(type: .message, id: SubjectID(words.id.uuid)), reason: .hate),
                token: reporter.accessToken)
            // The troll's reply, whose case quotes his words around it.
            _ = try await gateway.value(
                ModerationAPI.report, body: ReportRequest(subject: .init(type: .message, id: SubjectID(reply.id.uuid)), reason: .spam),
                token: reporter.accessToken)
            // One case about him decided before he leaves: closed cases kept his name and words too.
            let cases = try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items
            let aboutHim = try #require(cases.first { $0.subject == .player(leaving.user.id) })
            _ = try await gateway.value(
                ModerationAPI.act, aboutHim.id, body: CaseActionRequest(action: .warn, reason: "Spam in the global room"),
                token: admin.accessToken)
            let messageCase = try #require(cases.first { $0.subject.id == SubjectID(words.id.uuid) })
            #expect(String(decoding: try HuddleJSON.encoder.encode(messageCase), as: UTF8.self).contains("mean words \(suffix)"))
            _ = try expect(
                204,
                try await gateway.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: leaving.accessToken))
            let open = try await poll {
                try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items
            } until: {
                !$0.contains { $0.subject.id == SubjectID(words.id.uuid) }
            }
            #expect(open.first { $0.subject == .player(troll.user.id) }?.notes == ["note by \(suffix)"])
            let closed = try await gateway.value(
                ModerationAPI.cases, query: ModerationAPI.caseStatus(.closed) + Query.limit(100), token: admin.accessToken
            ).items
            let his = closed.filter { [aboutHim.id, messageCase.id].contains($0.id) }
            #expect(his.count == 2)
            // Nothing of his in any case, open or closed; the decisions and their reasons stay.
            let shown = String(decoding: try HuddleJSON.encoder.encode(open + closed), as: UTF8.self)
            #expect(!shown.contains("Leaving \(suffix)") && !shown.contains("mean words \(suffix)"))
            // A case about him still names its subject by the id of an account that is no more, but no
            // content is his.
            #expect(!shown.contains("\"ownerId\":\"\(leaving.user.id)\""))
            #expect(his.first { $0.id == aboutHim.id }?.actions.map(\.reason) == ["Spam in the global room"])
            #expect(his.first { $0.id == messageCase.id }?.actions.map(\.action) == [.remove])
            // The troll's reply beside his words is still shown in the context; his line is not.
            let context = his.first { $0.id == messageCase.id }?.context ?? []
            #expect(context.contains { $0.text == "a reply \(suffix)" })
            // The reply's case keeps its owner, the troll: his words stay, the deleted player's beside them go,
            // and a decision on it joins the troll's history.
            let replyCase = try #require(open.first { $0.subject.id == SubjectID(reply.id.uuid) })
            #expect(replyCase.content.text == "a reply \(suffix)" && replyCase.content.ownerId == troll.user.id)
            #expect(replyCase.context?.contains { $0.text.contains("mean words") } == false)
            _ = try await gateway.value(
                ModerationAPI.act, replyCase.id, body: CaseActionRequest(action: .warn, reason: "Spam"), token: admin.accessToken)
            let trollCase = try await gateway.value(ModerationAPI.cases, query: Query.limit(100), token: admin.accessToken).items
                .first { $0.subject == .player(troll.user.id) }
            #expect(trollCase?.ownerHistory.map(\.reason) == ["Spam"])
            let outcome = try await poll {
                try await gateway.value(ModerationAPI.myReports, token: reporter.accessToken).items
            } until: {
                $0.filter { $0.status != .open }.count >= 3
            }
            #expect(outcome.filter { $0.status == .actioned }.count == 3)
        }
    }
}
