import ArgumentParser
import AsyncHTTPClient
import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOCore
import NIOHTTP1
import SQLKit
import ServiceHTTP
import ServiceKitTesting
import ServiceStore

/// `huddle-bench chat`: chat runs in processes of its own (`huddle --modules auth,chat`, and with
/// `--instances 2` a second `chat` on the same PostgreSQL), so their memory is theirs alone:
/// 1. memory per idle subscribed socket: the chat process's RSS with `--sockets` sockets subscribed
///    to the global room, minus its RSS before they connected;
/// 2. fan-out: one sender posts `--rate` messages a second for `--seconds`; the latency from each
///    send to its arrival at every socket, p50/p99 (sockets split over the instances);
/// 3. history: `--history` messages written straight into a room's store, then pages of 50 read at
///    random places through the API, p50/p99.
/// With `--through-gateway` the devices connect as phones do, through a gateway in a process of its
/// own (`huddle --modules gateway`), whose memory per socket and CPU a delivery are printed beside
/// chat's: it holds two connections a device, the device's and its link to chat.
struct ChatBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chat", abstract: "Chat fan-out, memory per socket and history.")

    @Option(help: "Sockets subscribed to one room.") var sockets = 1000
    @Option(help: "Messages a second during the fan-out.") var rate = 20
    @Option(help: "Seconds of messages.") var seconds = 10
    @Option(help: "Chat instances (2 needs --postgres).") var instances = 1
    @Option(help: "A PostgreSQL URL whose user may create databases; a SQLite file when absent.") var postgres: String?
    @Option(help: "Messages in the room read for history pages (0 skips it).") var history = 1_000_000
    @Option(help: "History pages read.") var pages = 2000
    @Option(help: "Seconds the subscribed sockets stay idle before the RSS is read.") var idle = 3
    @Flag(help: "Devices connect through a gateway in a process of its own.") var throughGateway = false

    func run() async throws {
        guard instances == 1 || (instances == 2 && postgres != nil) else {
            throw ValidationError("--instances 2 needs --postgres: instances share the room through PostgreSQL")
        }
        try await BenchStore.with(postgres: postgres, name: "chat") { store in
            let data = store.directory
            let (chatDB, authDB) = (try await store.url("chat"), try await store.url("auth"))
            let common = [
                "auth.bcrypt.cost=4", "chat.flood.burst=1000000", "chat.flood.interval.ms=1",
                "chat.db.url=\(chatDB)",
            ]
            var processes = [
                try ChildProcess.huddle(
                    ["--modules", "auth,chat"],
                    settings: common + [
                        "auth.http.port=28081", "chat.http.port=28086", "auth.db.url=\(authDB)", "auth.events.subscribers=chat",
                    ],
                    data: data)
            ]
            defer { for process in processes { process.stop() } }
            try await ChildProcess.waitForHealth("http://127.0.0.1:28086")
            var chatURLs = ["http://127.0.0.1:28086"]
            if instances == 2 {
                processes.append(
                    try ChildProcess.huddle(
                        ["--modules", "chat"], settings: common + ["chat.http.port=28186", "auth.url=http://127.0.0.1:28081"], data: data))
                try await ChildProcess.waitForHealth("http://127.0.0.1:28186")
                chatURLs.append("http://127.0.0.1:28186")
            }
            // Where the devices connect: chat's instances, or the gateway in front of them.
            var deviceURLs = chatURLs
            var gateway: ChildProcess?
            if throughGateway {
                let started = try ChildProcess.huddle(
                    ["--modules", "gateway"],
                    settings: common + [
                        "gateway.http.port=28080", "gateway.ops.http.port=28180", "gateway.modules=auth,chat",
                        "auth.url=http://127.0.0.1:28081", "chat.url=\(chatURLs.joined(separator: ","))",
                        "gateway.ratelimit.rate=100000000", "gateway.ratelimit.burst=100000000",
                    ],
                    data: data)
                processes.append(started)
                try await ChildProcess.waitForHealth("http://127.0.0.1:28080")
                (gateway, deviceURLs) = (started, ["http://127.0.0.1:28080"])
            }
            let auth = TestClient(baseURL: "http://127.0.0.1:28081")
            let users = try await (0..<min(100, sockets)).asyncMap { try await auth.register(name: "Bench \($0)") }
            let sender = try await auth.register(name: "Sender")
            let chat = TestClient(baseURL: chatURLs[0])
            let rooms = try await chat.call(ChatAPI.rooms, token: sender.accessToken).decode(Page<ChatRoom>.self)
            guard let room = rooms.items.first(where: { $0.kind == .global })?.id else { throw ValidationError("no global room") }

            // A few sockets first, so what the first connections make once (pools, caches) is not counted.
            for device in try await connect(0..<20, room: room, users: users, urls: deviceURLs) { await device.close() }
            try await Task.sleep(for: .seconds(2))
            // A tenth of the sockets, then the rest: how memory and fan-out grow with the sockets. Memory
            // per socket is what the sockets each step adds brought, read after they idled.
            var devices: [ChatDevice] = []
            for count in Set([max(1, sockets / 10), sockets]).sorted() {
                let before = processes[0].residentBytes(), added = count - devices.count
                let gatewayBefore = gateway?.residentBytes()
                devices += try await connect(devices.count..<count, room: room, users: users, urls: deviceURLs)
                try await Task.sleep(for: .seconds(idle))
                let after = processes[0].residentBytes()
                let share = chatURLs.count == 1 ? added : (added + 1) / 2
                print(
                    String(
                        format:
                            "chat memory: %d sockets subscribed to one room; RSS of the first instance %.1f MB -> %.1f MB for the last %d: %.1f KB per idle socket",
                        count, Double(before) / 1e6, Double(after) / 1e6, added, Double(after - before) / Double(share) / 1024))
                if let gateway, let gatewayBefore {
                    let gatewayAfter = gateway.residentBytes()
                    print(
                        String(
                            format: "  the gateway's RSS %.1f MB -> %.1f MB: %.1f KB per idle device (its socket and its link to chat)",
                            Double(gatewayBefore) / 1e6, Double(gatewayAfter) / 1e6,
                            Double(gatewayAfter - gatewayBefore) / Double(added) / 1024))
                }
                try await fanOut(room: room, sender: sender, devices: devices, chatProcess: processes[0], gateway: gateway)
            }
            for device in devices { await device.close() }
            if history > 0 { try await historyPages(room: room, reader: sender, chat: chat, store: chatDB) }
        }
    }

    typealias ChatDevice = BenchSocket<ChatServerFrame>

    /// Connects sockets `indices` (the addresses and users taking turns), each subscribed to `room`.
    private func connect(_ indices: Range<Int>, room: RoomID, users: [Session], urls: [String]) async throws -> [ChatDevice] {
        var devices: [ChatDevice] = []
        for index in indices {
            let device = try await ChatDevice.connect(
                baseURL: urls[index % urls.count], path: "/v1/chat/live", token: users[index % users.count].accessToken)
            try device.send(ChatClientFrame.subscribe(room))
            devices.append(device)
        }
        for device in devices {
            guard try await device.waitFor(timeout: .seconds(60), { $0.type == .subscribed }) else {
                throw ValidationError("a socket was not subscribed")
            }
        }
        return devices
    }

    /// Sends `rate` messages a second and prints the send-to-arrival latency over every socket.
    private func fanOut(room: RoomID, sender: Session, devices: [ChatDevice], chatProcess: ChildProcess, gateway: ChildProcess?)
        async throws
    {
        let chat = TestClient(baseURL: "http://127.0.0.1:28086")
        var sentAt: [String: ContinuousClock.Instant] = [:]
        let interval = Duration.seconds(1) / rate
        var next = ContinuousClock.now
        let firstFrames = devices.map(\.frameCount)
        let cpu = FanOutCPU(server: chatProcess, relays: gateway.map { [$0] } ?? [])
        for index in 0..<(rate * seconds) {
            try await Task.sleep(until: next)
            let id = "bench-\(devices.count)-\(index)"
            sentAt[id] = .now
            _ = try await expect(
                201,
                chat.call(
                    ChatAPI.send, room, body: SendChatMessage(text: "message \(index)", clientMessageId: id),
                    token: sender.accessToken))
            next += interval
        }
        try await Task.sleep(for: .seconds(3))
        // The chat process (auth beside it, idle; with two instances the first's, for its half of
        // the sockets) and this one (the devices, and the sender's calls).
        let cpuLine = cpu.line(
            per: "message", units: rate * seconds, server: "chat's", devices: devices.count,
            serverDevices: (devices.count + instances - 1) / instances)
        var latencies: [Double] = [], missing = 0
        for (device, first) in zip(devices, firstFrames) {
            var seen = Set<String>()
            for arrival in device.arrivals(from: first) where arrival.message.type == .message {
                guard let message = arrival.message.message, let sent = sentAt[message.clientMessageId] else { continue }
                seen.insert(message.clientMessageId)
                latencies.append((arrival.at - sent).seconds * 1000)
            }
            missing += sentAt.count - seen.count
        }
        latencies.sort()
        print(
            String(
                format:
                    "chat fan-out: %d sockets, %d messages/s for %d s: %d deliveries, %d missing; send to arrival p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                devices.count, rate, seconds, latencies.count, missing, percentile(latencies, 0.5), percentile(latencies, 0.99),
                latencies.last ?? .nan))
        print(cpuLine)
    }

    /// Fills the room to `history` messages in its store, then reads pages at random seqs.
    private func historyPages(room: RoomID, reader: Session, chat: TestClient, store url: String) async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let database = try await Database.open(url: url, now: Effects.system.now, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await database.run() }
            defer { group.cancelAll() }
            let start = ContinuousClock.now
            let first = try await database.read { sql in
                try await sql.raw("SELECT last_seq FROM rooms WHERE id = \(bind: room.description)").first()?.decode(
                    column: "last_seq", as: Int.self)
                    ?? 0
            }
            try await database.transaction { sql in
                let series =
                    database.kind == .postgres
                    ? "SELECT generate_series(\(first + 1), \(history)) AS i"
                    : "WITH RECURSIVE s(i) AS (SELECT \(first + 1) UNION ALL SELECT i + 1 FROM s WHERE i < \(history)) SELECT i FROM s"
                let now = database.kind == .postgres ? "now()" : "unixepoch('subsec')"
                // A version 4 UUID from 16 random bytes (h), written as the service writes ids.
                let id =
                    database.kind == .postgres
                    ? "gen_random_uuid()::text"
                    : "lower(substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-a' || substr(h, 18, 3) || '-' || substr(h, 21, 12))"
                // Generated in the database: a million rows through the driver would take minutes.
                let insert: String = """
                    INSERT INTO messages (id, room_id, seq, sender_id, sender_name, text, client_message_id, sent_at)
                    SELECT \(id), '\(room)', i, '\(reader.user.id)', 'Bench', 'history ' || i, 'h' || i, \(now)
                    FROM (SELECT i, \(database.kind == .postgres ? "''" : "hex(randomblob(16))") AS h FROM (\(series)) AS n) AS s
                    """
                try await sql.raw(SQLQueryString(insert)).run()
                try await sql.raw("UPDATE rooms SET last_seq = \(bind: history) WHERE id = \(bind: room.description)").run()
            }
            print(String(format: "chat history: %d messages written in %.1f s", history, (ContinuousClock.now - start).seconds))
        }
        var latencies: [Double] = []
        for _ in 0..<pages {
            let before = Int.random(in: 2...history)
            let started = ContinuousClock.now
            _ = try await expect(
                200, chat.call(ChatAPI.messages, room, query: ChatAPI.messagesBefore(before) + Query.limit(50), token: reader.accessToken))
            latencies.append((ContinuousClock.now - started).seconds * 1000)
        }
        latencies.sort()
        print(
            String(
                format: "chat history: %d pages of 50 at random seqs of %d: p50 %.2f ms, p99 %.2f ms", pages, history,
                latencies[latencies.count / 2], latencies[min(latencies.count - 1, latencies.count * 99 / 100)]))
    }

}
