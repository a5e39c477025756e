import ArgumentParser
import Contracts
import Foundation
import HuddleEffects
import ProviderStandIns
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore

/// `huddle-bench chatpush`: auth, chat and notify as `huddle` runs them, in a process of their own,
/// pushing to the stand-in's APNs (HTTP/2 over TLS) in this process. Team rooms of `--members`
/// members are written straight into chat's store; `--online` of them follow each room live (the
/// presence rows a socket's instance writes; the sockets' own fan-out is `huddle-bench chat`'s), the
/// others each have an iPhone in notify's:
/// 1. the send path without pushes: `--sends` messages at `--rate` a second over the rooms, each one's
///    time through chat's API, p50/p99, with chat and auth alone (no one takes chat's events);
/// 2. the same with notify beside them, pushing, and its held pushes let go before what follows;
///    the two phases alternate `--rounds` times, each round's p99s printed and all rounds' times pooled
///    (the p99 of one phase's 400 sends is its fourth slowest, which one stray pause moves by half);
/// 3. push latency: one message to each of `--rooms` fresh rooms; from its send to each offline member's
///    push accepted at the stand-in, p50/p99/max;
/// 4. a burst: `--burst` messages one a second to one more room; how many pushes each offline member
///    got from it (one at once, one at the end of the quiet interval).
///
/// With `--apart`, chat and notify run as a deployment runs them, on CPUs of their own: auth and chat
/// with the timed sender (`chatpush-sends`, a process of its own) on the first core, notify in its own
/// `huddle` with this process (the stand-in that takes the pushes) on the second. With
/// `--notify-on-sqlite`, notify's statements leave the PostgreSQL the sends use.
struct ChatPushBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chatpush", abstract: "Chat messages pushed to members away from the room.")

    @Option(help: "Members of each room.") var members = 1000
    @Option(help: "Members of each room following it live (not pushed).") var online = 100
    @Option(help: "Rooms for the push latency (one message each).") var rooms = 10
    @Option(help: "Messages timed on the send path, with pushes and without.") var sends = 400
    @Option(help: "Messages a second on the send path.") var rate = 20
    @Option(help: "Rounds of the send path, each timed without pushes and then with them; all rounds' times pooled.") var rounds = 3
    @Option(help: "Messages of the burst, one a second.") var burst = 10
    @Option(help: "A PostgreSQL URL whose user may create databases; a SQLite file when absent.") var postgres: String?
    @Flag(help: "Chat and its sender on core 0, notify and the stand-in on core 1.") var apart = false
    @Flag(
        name: .customLong("notify-on-sqlite"),
        help: "With --postgres, notify's store a SQLite file of its own: how much of the send path's growth is notify's statements.")
    var notifyOnSQLite = false

    func run() async throws {
        guard online < members else { throw ValidationError("--online must be fewer than --members") }
        try await BenchStore.with(postgres: postgres, name: "chatpush") { store in
            let data = store.directory
            let (chatDB, authDB) = (try await store.url("chat"), try await store.url("auth"))
            let notifyDB = notifyOnSQLite ? "sqlite:\(data.path)/notify.sqlite" : try await store.url("notify")
            if apart { try await ChildProcess.keepSelf(on: "1") }
            try await withPushStandIns { pushSettings, _, recorder in
                let settings =
                    [
                        "auth.bcrypt.cost=4", "chat.flood.burst=1000000", "chat.flood.interval.ms=1", "auth.http.port=28081",
                        "chat.http.port=28086", "notify.http.port=28087", "auth.url=http://127.0.0.1:28081",
                        "chat.url=http://127.0.0.1:28086", "notify.url=http://127.0.0.1:28087", "auth.db.url=\(authDB)",
                        "chat.db.url=\(chatDB)", "notify.db.url=\(notifyDB)",
                    ] + pushSettings.map { "\($0.key)=\($0.value)" }
                    + AbsentModules.addresses(besides: [.auth, .chat, .notify]).map { "\($0.key)=\($0.value)" }
                var server = try chatAlone(settings, data: data)
                defer { server.stop() }
                try await ChildProcess.waitForHealth("http://127.0.0.1:28086")
                let sender = try await TestClient(baseURL: "http://127.0.0.1:28081").register(name: "Coach Sender")
                let people = (0..<members).map(Self.member)
                let chatStore = try await Database.open(url: chatDB, now: Effects.system.now, logger: .quiet("bench"))
                var timedRooms: [RoomID] = []
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await chatStore.run() }
                    defer { group.cancelAll() }
                    for index in 0..<(2 * rooms + 1) {
                        timedRooms.append(
                            try await Self.room("Bench team \(index)", sender: sender.user.id, people: people, online: online, chatStore))
                    }
                }
                let sendRooms = Array(timedRooms.prefix(rooms)), latencyRooms = Array(timedRooms.dropFirst(rooms).prefix(rooms))
                let burstRoom = timedRooms[2 * rooms]
                // Notify apart keeps running: without chat's events it has nothing to do.
                let notify = apart ? try ChildProcess.huddle(["--modules", "notify"], settings: settings, data: data, cores: "1") : nil
                defer { notify?.stop() }
                // The phases alternate, so that what changes on the machine meanwhile falls on both alike.
                var without: [Double] = [], with: [Double] = []
                for round in 1...rounds {
                    // Started afresh each phase, so chat's deliveries to notify start at once rather than after a backoff.
                    if round > 1 {
                        server.stop()
                        server = try chatAlone(settings, data: data)
                        try await ChildProcess.waitForHealth("http://127.0.0.1:28086")
                    }
                    let alone = try await sendPath(sender, rooms: sendRooms)
                    server.stop()
                    server = try pushingChat(settings, data: data)
                    try await ChildProcess.waitForHealth("http://127.0.0.1:28087")
                    if round == 1 { try await Self.phones(for: people.dropFirst(online), notifyDB) }
                    let pushing = try await sendPath(sender, rooms: sendRooms)
                    // The held pushes go before what comes next, timed without them.
                    try await Self.drained(notifyDB)
                    without += alone
                    with += pushing
                    let (aloneP99, pushingP99) = (percentile(alone.sorted(), 0.99), percentile(pushing.sorted(), 0.99))
                    print(
                        String(
                            format: "chatpush: round %d of the send path: p99 %.1f ms without pushes, %.1f ms with (%+.0f%%)", round,
                            aloneP99, pushingP99, (pushingP99 / aloneP99 - 1) * 100))
                }
                without.sort()
                with.sort()
                print(
                    String(
                        format: "chatpush: send path, %d messages at %d/s to %d-member rooms: p50 %.1f ms, p99 %.1f ms without pushes; "
                            + "p50 %.1f ms, p99 %.1f ms with pushes (%+.0f%% at p99; %d rounds pooled)",
                        sends * rounds, rate, members, percentile(without, 0.5), percentile(without, 0.99), percentile(with, 0.5),
                        percentile(with, 0.99), (percentile(with, 0.99) / percentile(without, 0.99) - 1) * 100, rounds))
                let offline = Array(people.dropFirst(online))
                try await pushLatency(sender, rooms: latencyRooms, offline: offline, recorder: recorder)
                try await burstPace(sender, room: burstRoom, offline: offline, recorder: recorder)
            }
        }
    }

    /// Waits out the quiet interval after the last send, then until notify holds no batch and no push.
    private static func drained(_ url: String) async throws {
        let start = ContinuousClock.now
        try await Task.sleep(for: .seconds(10))
        let store = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("bench"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            defer { group.cancelAll() }
            while true {
                let waiting = try await store.read { sql in
                    try await sql.raw(
                        """
                        SELECT (SELECT count(*) FROM chat_push_batches WHERE state = 'pending')
                            + (SELECT count(*) FROM push_jobs WHERE state = 'pending') AS waiting
                        """
                    ).first()?.decode(column: "waiting", as: Int.self) ?? 0
                }
                if waiting == 0 { break }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        print("chatpush: the send path's pushes all gone \(ContinuousClock.now - start) after its last send")
    }

    /// Member `index`: an id and an iPhone token from the number.
    private static func member(_ index: Int) -> (UserID, String) {
        let hex = String(index, radix: 16)
        let id = UserID(UUID(uuidString: "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex)!)
        return (id, String(repeating: "c", count: 64 - hex.count) + hex)
    }

    /// A team room of `people` and the sender, the first `online` of them following it live.
    private static func room(
        _ name: String, sender: UserID, people: [(UserID, String)], online: Int, _ store: Database
    ) async throws -> RoomID {
        let room = RoomID(), now = Effects.system.now()
        try await store.transaction { sql in
            try await sql.insert(into: "rooms").columns("id", "kind", "subject", "name", "last_activity")
                .values(SQLBind(room.description), SQLBind("team"), SQLBind(TeamID().description), SQLBind(name), SQLBind(now)).run()
            for slice in ([sender] + people.map(\.0)).statementSlices() {
                try await sql.insert(into: "room_members").columns("room_id", "user_id")
                    .rows(slice.map { [SQLBind(room.description), SQLBind($0.description)] }).run()
            }
            try await sql.insert(into: "room_presence").columns("socket_id", "room_id", "user_id", "instance_id", "expires_at")
                .rows(
                    people.prefix(online).map {
                        [
                            SQLBind(UUID().uuidString), SQLBind(room.description), SQLBind($0.0.description), SQLBind(UUID().uuidString),
                            SQLBind(now.addingTimeInterval(3600)),
                        ]
                    }
                ).run()
        }
        return room
    }

    /// Auth and chat, no one taking chat's events.
    private func chatAlone(_ settings: [String], data: URL) throws -> ChildProcess {
        try ChildProcess.huddle(["--modules", "auth,chat"], settings: settings, data: data, cores: apart ? "0" : nil)
    }

    /// Chat with notify taking its events: beside it in this `huddle`, or apart in its own (`--apart`).
    private func pushingChat(_ settings: [String], data: URL) throws -> ChildProcess {
        // A module delivers its events to those in its own process unless told of others.
        guard apart else { return try ChildProcess.huddle(["--modules", "auth,chat,notify"], settings: settings, data: data) }
        return try ChildProcess.huddle(
            ["--modules", "auth,chat"], settings: settings + ["chat.events.subscribers=notify"], data: data, cores: "0")
    }

    private static func phones(for people: ArraySlice<(UserID, String)>, _ url: String) async throws {
        let store = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("bench"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await store.run() }
            defer { group.cancelAll() }
            try await phones(for: people, store)
        }
    }

    private static func phones(for people: ArraySlice<(UserID, String)>, _ store: Database) async throws {
        try await store.transaction { sql in
            for slice in Array(people).statementSlices() {
                try await sql.insert(into: "devices").columns("token", "user_id", "platform", "environment", "topic", "registered_at")
                    .rows(
                        slice.map {
                            [
                                SQLBind($0.1), SQLBind($0.0.description), SQLBind("apns"), SQLBind("sandbox"), SQLBind("app.huddle.ios"),
                                SQLBind(Effects.system.now()),
                            ]
                        }
                    ).run()
            }
        }
    }

    private func send(_ sender: Session, _ text: String, to room: RoomID) async throws -> Double {
        try await ChatPushSends.send(text, to: room, token: sender.accessToken)
    }

    /// Each send's time, in milliseconds, sorted; timed here, or apart by a sender of its own on chat's core.
    private func sendPath(_ sender: Session, rooms: [RoomID]) async throws -> [Double] {
        guard apart else { return try await ChatPushSends.times(sends: sends, rate: rate, token: sender.accessToken, rooms: rooms) }
        let output = try await ChildProcess.runTool(
            ChildProcess.taskset.path,
            [
                "-c", "0", ChildProcess.built("huddle-bench").path, "chatpush-sends", "--sends", "\(sends)", "--rate", "\(rate)",
                "--token", sender.accessToken, "--rooms", rooms.map(\.description).joined(separator: ","),
            ])
        return output.split(separator: "\n").compactMap { Double($0) }.sorted()
    }

    private func pushLatency(_ sender: Session, rooms: [RoomID], offline: [(UserID, String)], recorder: PushRecorder) async throws {
        var latencies: [Double] = [], missing = 0
        for (index, room) in rooms.enumerated() {
            let before = recorder.attempts(service: "apns")
            let sent = Effects.system.now()
            _ = try await send(sender, "Kit check before Saturday (\(index))", to: room)
            let deadline = sent.addingTimeInterval(30)
            var now = recorder.attempts(service: "apns")
            func arrived(_ token: String) -> Date? {
                now[token]?.dropFirst(before[token]?.count ?? 0).first { $0.headers["apns-collapse-id"] == room.description }?.receivedAt
            }
            while Effects.system.now() < deadline, offline.contains(where: { arrived($0.1) == nil }) {
                try await Task.sleep(for: .milliseconds(20))
                now = recorder.attempts(service: "apns")
            }
            for (_, token) in offline {
                if let at = arrived(token) { latencies.append(at.timeIntervalSince(sent) * 1000) } else { missing += 1 }
            }
        }
        latencies.sort()
        print(
            String(
                format: "chatpush: a message to a %d-member room, %d away: %d pushes accepted, %d missing; from the send p50 %.0f ms, "
                    + "p99 %.0f ms, max %.0f ms (%d rooms)",
                members, offline.count, latencies.count, missing, percentile(latencies, 0.5), percentile(latencies, 0.99),
                latencies.last ?? .nan, rooms.count))
    }

    private func burstPace(_ sender: Session, room: RoomID, offline: [(UserID, String)], recorder: PushRecorder) async throws {
        let start = ContinuousClock.now
        for index in 0..<burst {
            try await Task.sleep(until: start + .seconds(index))
            _ = try await send(sender, "Burst message \(index + 1)", to: room)
        }
        // The held push goes at the end of the quiet interval (10 s by default) after the first.
        try await Task.sleep(until: start + .seconds(burst + 15))
        let received = recorder.attempts(service: "apns")
        let counts = offline.map { member in received[member.1]?.filter { $0.headers["apns-collapse-id"] == room.description }.count ?? 0 }
        let most = counts.max() ?? 0, fewest = counts.min() ?? 0
        print(
            "chatpush: \(burst) messages in \(burst) s reached each of \(offline.count) members away as \(fewest)–\(most) pushes"
                + " (\(counts.filter { $0 <= 2 }.count) of them at most two)")
    }
}
