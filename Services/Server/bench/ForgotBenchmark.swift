import ArgumentParser
import AsyncHTTPClient
import Contracts
import Foundation
import NIOCore
import NIOHTTP1

/// `huddle-bench forgot`: whether "forgot password" takes as long for an address nobody has as for
/// one an account has, since a difference would tell an attacker which addresses are registered.
/// One auth instance (SQLite, or `--db-url`), `accounts` registered; then, round after round,
/// requests for known and unknown addresses alternate (each from its own client address, and each
/// known address asked fewer times than its hourly limit), a pause after each so that the work a
/// known address leaves for later (its token and mail, written after the answer) is not timed as
/// part of the next request; the medians and 90th percentiles of both are printed with their difference.
struct ForgotBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "forgot", abstract: "Forgot-password latency for known and unknown addresses.")

    @Option(help: "Accounts registered; each is asked for a reset once a round.") var accounts = 200
    @Option(help: "Rounds (at most four: an address may ask five times an hour).") var rounds = 3
    @Option(help: "auth's store; SQLite in a temporary directory when not given.") var dbURL: String?
    @Option(help: "Milliseconds between requests.") var pauseMs = 20

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("forgot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        var environment = [
            "AUTH_HTTP_PORT": "28211", "AUTH_DB_URL": dbURL ?? "sqlite:\(data.path)/auth.sqlite", "AUTH_BCRYPT_COST": "4",
        ]
        // Every other module named (auth refuses to start without the addresses of those it calls), none running.
        for module in ServiceModule.allCases where module != .auth && module != .gateway {
            environment["\(module.rawValue.uppercased())_URL"] = "http://127.0.0.1:1"
        }
        let auth = try ChildProcess.module("auth", environment: environment)
        defer { auth.stop() }
        let base = "http://127.0.0.1:28211"
        try await ChildProcess.waitForHealth(base)
        let run = UUID().uuidString.prefix(8).lowercased()
        let known = (0..<accounts).map { "known-\(run)-\($0)@example.com" }
        for (index, email) in known.enumerated() {
            let status = try await post(
                base + "/v1/auth/register", ["email": email, "password": "bench password \(index)", "name": "Bench \(index)"],
                client: "10.1.\(index / 250).\(index % 250)")
            guard status == 201 else { throw ValidationError("registering \(email) answered \(status)") }
        }

        print("forgot: POST /v1/auth/password/forgot, \(accounts) known and \(accounts) unknown addresses a round, alternating")
        var differences: [Double] = [], knownMedians: [Double] = [], unknownMedians: [Double] = []
        for round in 1...min(rounds, 4) {
            var knownTimes: [Double] = [], unknownTimes: [Double] = []
            for (index, email) in known.enumerated() {
                let client = "10.\(round + 1).\(index / 250).\(index % 250)"
                knownTimes.append(try await timedForgot(base, email: email, client: client))
                unknownTimes.append(try await timedForgot(base, email: "nobody-\(run)-\(round)-\(index)@example.com", client: client))
            }
            knownTimes.sort()
            unknownTimes.sort()
            let (knownMedian, unknownMedian) = (percentile(knownTimes, 0.5), percentile(unknownTimes, 0.5))
            print(
                String(
                    format: "  round %d: known p50 %.3f ms, p90 %.3f ms; unknown p50 %.3f ms, p90 %.3f ms", round, knownMedian,
                    percentile(knownTimes, 0.9), unknownMedian, percentile(unknownTimes, 0.9)))
            knownMedians.append(knownMedian)
            unknownMedians.append(unknownMedian)
            differences.append(knownMedian - unknownMedian)
        }
        print("known p50 \(Spread(knownMedians, unit: " ms", digits: 3)), unknown p50 \(Spread(unknownMedians, unit: " ms", digits: 3))")
        print("known minus unknown, p50: \(Spread(differences, unit: " ms", digits: 3))")
    }

    /// Milliseconds the request took; it must be answered 202.
    private func timedForgot(_ base: String, email: String, client: String) async throws -> Double {
        let start = ContinuousClock.now
        let status = try await post(base + "/v1/auth/password/forgot", ["email": email], client: client)
        let elapsed = ContinuousClock.now - start
        try await Task.sleep(for: .milliseconds(pauseMs))
        guard status == 202 else { throw ValidationError("forgot for \(email) answered \(status)") }
        return Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    }

    /// `client` as the gateway would forward it, so the per-client limit counts each separately.
    private func post(_ url: String, _ body: [String: String], client: String) async throws -> UInt {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "X-Forwarded-For", value: client)
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 16)
        return response.status.code
    }
}
