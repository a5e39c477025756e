import Contracts
import Foundation
import HuddleKit
import NIOConcurrencyHelpers
import ProviderStandIns
import ServiceKitTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The folder of the replicated topology's pid files, when the tests run against it.
let replicatedTopology = ProcessInfo.processInfo.environment["HUDDLE_TEST_REPLICAS"].flatMap { $0.isEmpty ? nil : $0 }
/// The replicated topology's providers' stand-in.
let standInURL = ProcessInfo.processInfo.environment["HUDDLE_TEST_STANDIN_URL"].flatMap { $0.isEmpty ? nil : $0 }

/// The replicated topology (deploy/kubernetes/replicas.sh, which names the folder of its instances'
/// pid files in HUDDLE_TEST_REPLICAS): one instance of every module is killed with SIGKILL in the
/// middle of journeys, reports and live sockets, and nothing acknowledged is lost; each provider was
/// polled by one instance at a time.
@Suite("Replicas survive a kill", .serialized, .enabled(if: replicatedTopology != nil, "needs the replicated topology"))
struct ReplicaKillTests {
    static var replicas: String? { replicatedTopology }
    static let modules = ["auth", "catalog", "games", "search", "betting", "chat", "notify", "purchases", "moderation"]

    /// Kills the first instance of every module with SIGKILL: no graceful shutdown, open transactions abandoned.
    static func killFirstInstances() throws {
        for module in modules {
            let text = try String(contentsOfFile: "\(try #require(replicas))/\(module)-1.pid", encoding: .utf8)
            let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            #expect(kill(pid, SIGKILL) == 0, "\(module)-1 (\(pid))")
        }
    }

    @Test(
        "messages, games and reports written while one instance of every module is killed are all kept, phones following the chat miss nothing, each report is in one case a survivor decides, and the survivors finish the killed ones' events"
    )
    func killOneOfEach() async throws {
        let gateway = try TestClient(baseURL: #require(StackTests.deployedGateway))
        let ada = try await gateway.register(name: "Ada Survivor"), bo = try await gateway.register(name: "Bo Survivor")
        let rooms = try await gateway.value(ChatAPI.rooms, query: Query.limit(100), token: ada.accessToken)
        let room = try #require(rooms.items.first { $0.kind == .global }).id

        // Two phones follow the global room, each through one of the gateways.
        let phones = gateway.baseURLs.map { _ in Frames() }
        var following: [Task<Void, Never>] = []
        for (phone, base) in zip(phones, gateway.baseURLs) {
            let app = HuddleClient(baseURL: URL(string: base)!, liveTransport: WebSocketLiveTransport(), tokens: InMemoryTokenStore())
            try await app.signIn(email: ada.user.email, password: "correct horse battery")
            following.append(Task { await phone.follow(app.liveChat([room: nil])) })
        }
        defer { following.forEach { $0.cancel() } }
        // Bo's Android phone is pushed an invitation to each game Ada plans, and the reminder of a
        // game he joined, which falls due a few seconds after the kill.
        let phoneToken = "replica-\(UUID().uuidString)"
        _ = try await gateway.value(
            NotifyAPI.registerDevice, body: RegisterDevice(platform: .fcm, token: phoneToken), token: bo.accessToken)
        let dueSoon = try await Self.gameRemindedSoon(joinedBy: bo, plannedBy: ada, through: gateway)
        try await Task.sleep(for: .seconds(1))

        // Bo chats, Ada plans games and reports every fifth message, each write retried with its own key
        // until acknowledged (a report's key is its subject).
        let sent = NIOLockedValueBox<[ChatMessage]>([]), games = NIOLockedValueBox<[Game]>([])
        let reports = NIOLockedValueBox<[Report]>([])
        let writing = Task {
            for index in 1...40 {
                let message = SendChatMessage(text: "message \(index)", clientMessageId: "survivor-\(index)")
                let acknowledged = try await Self.retried(ChatMessage.self) {
                    try await gateway.call(ChatAPI.send, room, body: message, token: bo.accessToken)
                }
                if let acknowledged { sent.withLockedValue { $0.append(acknowledged) } }
                if let acknowledged, index.isMultiple(of: 5) {
                    let report = ReportRequest(subject: .message(acknowledged.id), reason: .spam, note: "survivor \(index)")
                    let kept = try await Self.retried(Report.self) {
                        try await gateway.call(ModerationAPI.report, body: report, token: ada.accessToken)
                    }
                    if let kept { reports.withLockedValue { $0.append(kept) } }
                }
                if index.isMultiple(of: 4) {
                    let key = ["Idempotency-Key": "survivor-game-\(index)"]
                    let request = CreateGameRequest(
                        kind: .pickup, startsAt: Date().addingTimeInterval(86_400).wholeSeconds,
                        location: Location(lat: 59.43, lng: 24.75, address: "Kadriorg"), sport: .volleyball, privacy: .public,
                        ageGroup: .adult,
                        gender: .coed, skill: .intermediate, capacity: 12)
                    let game = try await Self.retried(Game.self) {
                        try await gateway.call(GamesAPI.createGame, body: request, token: ada.accessToken, headers: key)
                    }
                    if let game {
                        games.withLockedValue { $0.append(game) }
                        _ = try await Self.retried(InviteResult.self) {
                            try await gateway.call(
                                GamesAPI.inviteToGame, game.id, body: InviteRequest(userIds: [bo.user.id]), token: ada.accessToken)
                        }
                    }
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        try await Task.sleep(for: .seconds(1.5))
        let killedAt = Date()
        try Self.killFirstInstances()
        try await writing.value

        let acknowledged = sent.withLockedValue { $0 }, planned = games.withLockedValue { $0 }
        #expect(acknowledged.count == 40 && planned.count == 10)
        // Every acknowledged message is in the history, once, in the order of its seq.
        let history = try await gateway.value(ChatAPI.messages, room, query: Query.limit(100), token: ada.accessToken).items
        for message in acknowledged { #expect(history.filter { $0.clientMessageId == message.clientMessageId }.count == 1) }
        // Each phone resumed on a surviving instance and received every message, without a gap.
        let last = try #require(acknowledged.map(\.seq).max())
        for phone in phones {
            #expect(try await eventually(within: .seconds(30)) { phone.messages.contains { $0.seq == last } }, "\(phone)")
            let seqs = phone.messages.map(\.seq).filter { $0 >= acknowledged[0].seq }
            #expect(seqs == Array(acknowledged[0].seq...last), "\(phone)")
        }
        // Every game is there, and its event reached search through whichever games instance survived.
        for game in planned { #expect(try await gateway.call(GamesAPI.game, game.id, token: ada.accessToken).status == 200) }
        let found = try await eventually(within: .seconds(30)) {
            let near = try await gateway.value(
                SearchAPI.games, query: Query.place(Coordinates(lat: 59.43, lng: 24.75)) + Query.radiusKm(1) + Query.limit(100),
                token: bo.accessToken)
            return Set(planned.map(\.id)).isSubset(of: Set(near.items.map(\.item.id)))
        }
        #expect(found, "search does not list every game planned around the kill")
        try await Self.checkReportsKept(reports.withLockedValue { $0 }, of: acknowledged, in: room, by: ada, through: gateway)
        try await Self.checkOnePollerAtATime(killedAt: killedAt)
        try await Self.checkPushed(phoneToken, about: planned.map(\.id) + [dueSoon])
    }

    /// Every report acknowledged around the kill is the reporter's once and in one open case of its
    /// own; a moderator removes the first message through the survivors, and it becomes a tombstone.
    static func checkReportsKept(
        _ reports: [Report], of messages: [ChatMessage], in room: RoomID, by reporter: Session, through gateway: TestClient
    ) async throws {
        #expect(reports.count == 8)
        let mine = try await gateway.value(ModerationAPI.myReports, query: Query.limit(100), token: reporter.accessToken).items
        for report in reports { #expect(mine.filter { $0.subject == report.subject }.count == 1, "\(report.subject)") }
        let moderator = try await StackTests.administrator(gateway)
        var open: [ModerationCase] = [], cursor: String?
        repeat {
            let page = try await gateway.value(
                ModerationAPI.cases, query: Query.limit(100) + Query.cursor(cursor), token: moderator.accessToken)
            open += page.items
            cursor = page.nextCursor
        } while cursor != nil
        let cases = reports.map { report in open.filter { $0.subject == report.subject } }
        for (report, found) in zip(reports, cases) {
            #expect(found.count == 1 && found.first?.reportCount == 1, "\(report.subject): \(found)")
        }
        let first = try #require(cases.first?.first)
        _ = try await gateway.value(
            ModerationAPI.act, first.id, body: CaseActionRequest(action: .remove, reason: "Spam"), token: moderator.accessToken)
        let message = try #require(messages.first { $0.id.uuid == first.subject.id.uuid })
        let removed = try await eventually(within: .seconds(30)) {
            let history = try await gateway.value(
                ChatAPI.messages, room, query: ChatAPI.messagesAfter(message.seq - 1) + Query.limit(10), token: reporter.accessToken)
            return history.items.first { $0.id == message.id }?.deleted == true
        }
        #expect(removed, "the removed message is not a tombstone")
    }

    /// A game `player` joins whose reminder (`notify.reminders.before.ms`, an hour before kickoff)
    /// falls due eight seconds from now.
    static func gameRemindedSoon(joinedBy player: Session, plannedBy organizer: Session, through gateway: TestClient) async throws -> GameID
    {
        let request = CreateGameRequest(
            kind: .pickup, startsAt: Date().addingTimeInterval(3600 + 8).wholeSeconds,
            location: Location(lat: 59.44, lng: 24.76, address: "Kalamaja"), sport: .football, privacy: .public, ageGroup: .adult,
            gender: .coed, skill: .intermediate, capacity: 10)
        let game = try await gateway.value(GamesAPI.createGame, body: request, token: organizer.accessToken)
        _ = try await gateway.value(GamesAPI.joinGame, game.id, token: player.accessToken)
        return game.id
    }

    /// Every game of `games` reached the phone with `token` in an accepted push (through the stand-in's
    /// FCM), whichever notify instance had the event, the reminder or the push job when one was killed.
    static func checkPushed(_ token: String, about games: [GameID]) async throws {
        let standIn = TestClient(baseURL: try #require(standInURL, "HUDDLE_TEST_STANDIN_URL"))
        let missing = { (pushes: [PushRecorder.Attempt]) in
            games.filter { game in !pushes.contains { $0.status == 200 && $0.payload.contains(game.description) } }
        }
        // Until every game has its push, not until there are as many pushes as games: a push sent twice
        // (its job's instance killed after sending it) can make up the count while a game's is still to come.
        let pushes = try await poll(every: .milliseconds(200)) {
            try await standIn.pushes("fcm", to: token)
        } until: {
            missing($0).isEmpty
        }
        #expect(missing(pushes).isEmpty, "no push about \(missing(pushes)) among \(pushes.count)")
    }

    /// Each module's provider poller (games' matches, betting's odds) called the feed from one
    /// instance at a time, over the whole run: no two instances' stretches of calls overlap (the
    /// stand-in logs each call with its `User-Agent`, which names the instance). And within a few
    /// seconds of the kill, the survivor polls.
    static func checkOnePollerAtATime(killedAt: Date) async throws {
        let standIn = FootballControlClient(baseURL: try #require(standInURL, "HUDDLE_TEST_STANDIN_URL"))
        for module in ["games", "betting"] {
            let survivor = "Huddle (\(module)-2)"
            // The lease is taken over ten seconds after its holder's last heartbeat at the latest.
            let polled = try await eventually(within: .seconds(30)) {
                try await standIn.requests().contains { $0.client == survivor && $0.at > killedAt }
            }
            #expect(polled, "\(survivor) did not poll after the kill")
            let calls = try await standIn.requests().filter { $0.client.hasPrefix("Huddle (\(module)-") }
            let stretches = Dictionary(grouping: calls, by: \.client).compactMap { client, calls -> (String, Date, Date)? in
                guard let first = calls.map(\.at).min(), let last = calls.map(\.at).max() else { return nil }
                return (client, first, last)
            }.sorted { $0.1 < $1.1 }
            for (earlier, later) in zip(stretches, stretches.dropFirst()) {
                #expect(earlier.2 <= later.1, "\(module): \(earlier.0) polled until \(earlier.2), \(later.0) from \(later.1)")
            }
            #expect(!calls.isEmpty, "\(module) never polled the feed")
        }
    }

    /// Tries `write` until it is acknowledged, as an app would: a request in flight on a killed
    /// instance fails (no answer, or a 5xx) and its retry carries the same key; a 429 waits its
    /// `Retry-After`; another 4xx is final. Up to thirty seconds.
    static func retried<T: Decodable>(_ type: T.Type, _ write: () async throws -> TestClient.Response) async throws -> T? {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            var pause = Duration.milliseconds(200)
            if let answer = try? await write() {
                if (200..<300).contains(answer.status) { return try answer.decode(T.self) }
                if answer.status == 429 {
                    pause = .seconds(Int(answer.header("Retry-After") ?? "") ?? 1)
                } else if answer.status < 500 {
                    throw UnexpectedResponse(response: answer)
                }
            }
            try await Task.sleep(for: pause)
        }
        return nil
    }
}
