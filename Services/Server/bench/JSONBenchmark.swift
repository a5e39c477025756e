import ArgumentParser
import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench json`: what a hostile body costs before anyone signs in. First in this process, the
/// CPU each body costs where every body and socket frame is read (`JSONTree.read`): a flat invalid
/// 1 KB body beside the worst 1 KB and 64 KB ones — nested past the limit, which are refused, and
/// nested to the limit and filled, the worst that is decoded — and, once, the 1 KB one decoded as
/// before the limit. Then through a running `huddle` (gateway and auth): a player's
/// `GET /v1/users/me` alone, and again while `--attackers` connections post the worst 1 KB body to
/// `POST /v1/auth/login` as fast as they are answered, with the attack's own answers timed.
struct JSONBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "json", abstract: "The cost of deep and invalid JSON bodies.")

    @Option(help: "Bodies of each kind a run.") var count = 200
    @Option(help: "Runs of each kind.") var runs = 5
    @Option(help: "Seconds of each load through the stack.") var seconds = 8
    @Option(help: "Connections sending the worst 1 KB body during the second load.") var attackers = 4

    func run() async throws {
        let bodies: [(String, Data)] = [
            ("flat invalid, 1 KB", Self.flatInvalid(bytes: 1024)),
            ("nested past the limit, 1 KB", Self.nested(depth: 511)),
            ("nested to the limit and filled, 1 KB", Self.filled(bytes: 1024)),
            ("nested past the limit, 64 KB", Self.nested(depth: 32_767)),
            ("nested to the limit and filled, 64 KB", Self.filled(bytes: 65_536)),
        ]
        print("json: CPU a body in JSONTree.read (µs), \(runs) runs of \(count)")
        for (name, body) in bodies {
            var perBody: [Double] = []
            for _ in 0..<runs {
                let started = ContinuousClock.now
                for _ in 0..<count { _ = try? JSONTree.read(body) }
                perBody.append((ContinuousClock.now - started).microseconds / Double(count))
            }
            print("  \(name) (\(body.count) bytes): \(Spread(perBody, unit: " µs", digits: 1))")
        }
        let started = ContinuousClock.now
        _ = try? HuddleJSON.decoder.decode(JSONValue.self, from: Self.nested(depth: 511))
        print(
            String(
                format: "  the 1 KB body nested 511 deep, decoded without the limit (as before): %.1f ms",
                (ContinuousClock.now - started).milliseconds))
        try await throughTheStack()
    }

    /// `{"email":"xxxx…` cut off before its string ends.
    static func flatInvalid(bytes: Int) -> Data { Data(("{\"email\":\"" + String(repeating: "x", count: bytes - 10)).utf8) }

    /// `[[[…]]]`, `depth` deep: 2 bytes a level.
    static func nested(depth: Int) -> Data { Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8) }

    /// Arrays nested exactly to the limit, the innermost filled with small arrays up to `bytes`: the
    /// deepest tree that is decoded, as wide as the size allows.
    static func filled(bytes: Int) -> Data {
        let depth = JSONTree.maximumDepth - 1
        let shell = 2 * depth
        let items = max(1, (bytes - shell) / 4)
        let inner = "[" + Array(repeating: "[1]", count: items).joined(separator: ",") + "]"
        return Data((String(repeating: "[", count: depth - 1) + inner + String(repeating: "]", count: depth - 1)).utf8)
    }

    private func throughTheStack() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("json-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ChildProcess.huddle(
            ["--modules", "gateway,auth"],
            settings: [
                "auth.bcrypt.cost=4", "gateway.http.port=28080", "gateway.ops.http.port=29180", "auth.http.port=28081",
                "auth.url=http://127.0.0.1:28081", "gateway.ratelimit.rate=1000000", "gateway.ratelimit.burst=1000000",
            ],
            data: data)
        defer { server.stop() }
        let gateway = "http://127.0.0.1:28080"
        try await ChildProcess.waitForHealth(gateway)
        let client = TestClient(baseURL: gateway)
        let player = try await client.register(name: "Reader")
        let quiet = try await reads(client, token: player.accessToken, for: .seconds(seconds))
        print("through the gateway, GET /v1/users/me, one client, \(seconds) s")
        print(String(format: "  alone: %d reads, p50 %.2f ms, p99 %.2f ms", quiet.count, percentile(quiet, 0.5), percentile(quiet, 0.99)))
        for (name, body) in [
            ("the 1 KB body nested 511 deep", Self.nested(depth: 511)), ("a flat invalid 1 KB body", Self.flatInvalid(bytes: 1024)),
        ] {
            let attack = Task { try await post(body, to: client) }
            let loaded = try await reads(client, token: player.accessToken, for: .seconds(seconds))
            let refused = try await attack.value
            print(
                String(
                    format:
                        "  beside %d connections posting %@: %d reads, p50 %.2f ms, p99 %.2f ms; theirs: %d answered 400, p50 %.2f ms, p99 %.2f ms",
                    attackers, name as NSString, loaded.count, percentile(loaded, 0.5), percentile(loaded, 0.99), refused.count,
                    percentile(refused, 0.5), percentile(refused, 0.99)))
        }
    }

    /// `--attackers` connections posting `body` to sign-in one after another for `--seconds`: each
    /// answer's latency in ms, sorted.
    private func post(_ body: Data, to client: TestClient) async throws -> [Double] {
        try await withThrowingTaskGroup(of: [Double].self) { group in
            for _ in 0..<attackers {
                group.addTask {
                    var answers: [Double] = []
                    let until = ContinuousClock.now + .seconds(seconds)
                    while ContinuousClock.now < until {
                        let started = ContinuousClock.now
                        _ = try await client.call(AuthAPI.login, rawBody: body)
                        answers.append((ContinuousClock.now - started).milliseconds)
                    }
                    return answers
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }.sorted()
        }
    }

    /// One client's `GET /v1/users/me` one after another for `duration`: each latency in ms, sorted.
    private func reads(_ client: TestClient, token: String, for duration: Duration) async throws -> [Double] {
        var latencies: [Double] = []
        let until = ContinuousClock.now + duration
        while ContinuousClock.now < until {
            let started = ContinuousClock.now
            _ = try await client.call(AuthAPI.me, token: token)
            latencies.append((ContinuousClock.now - started).milliseconds)
        }
        return latencies.sorted()
    }
}

extension Duration {
    fileprivate var microseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }
    fileprivate var milliseconds: Double { microseconds / 1000 }
}
