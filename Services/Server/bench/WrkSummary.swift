import ArgumentParser

/// What `huddle-bench` reads from wrk's `--latency` report.
struct WrkSummary {
    /// Responses received in the run, over how many seconds, and how many of them were not 2xx.
    let requests: Int
    let seconds: Double
    let refused: Int
    /// Connect, read, write errors and timeouts.
    let errors: Int
    /// Milliseconds.
    let p50: Double
    let p99: Double

    init?(_ report: String) {
        let lines = report.split(separator: "\n").map { $0.trimmingPrefix(while: \.isWhitespace) }
        func fields(after prefix: String) -> [Substring]? {
            lines.first { $0.hasPrefix(prefix) }.map { $0.dropFirst(prefix.count).split(whereSeparator: { $0 == " " || $0 == "," }) }
        }
        // "26645 requests in 8.00s, 16.57MB read"
        let total = lines.first { $0.contains(" requests in ") }?.split(whereSeparator: { $0 == " " || $0 == "," }) ?? []
        guard total.count > 3, let requests = Int(total[0]), let milliseconds = Self.milliseconds(total[3]),
            let p50 = fields(after: "50%")?.first.flatMap(Self.milliseconds),
            let p99 = fields(after: "99%")?.first.flatMap(Self.milliseconds)
        else { return nil }
        self.requests = requests
        seconds = milliseconds / 1000
        self.p50 = p50
        self.p99 = p99
        refused = fields(after: "Non-2xx or 3xx responses:")?.first.flatMap { Int($0) } ?? 0
        // "Socket errors: connect 0, read 0, write 0, timeout 0"
        errors = (fields(after: "Socket errors:") ?? []).compactMap { Int($0) }.reduce(0, +)
    }

    /// Runs wrk (`--latency` added) to its end and reads its report.
    static func run(_ wrk: String, _ arguments: [String]) async throws -> WrkSummary {
        let output = try await ChildProcess.runTool(wrk, ["--latency"] + arguments)
        guard let summary = WrkSummary(output) else { throw ValidationError("could not read wrk's output:\n\(output)") }
        return summary
    }

    /// A load of `connections` on `url` for `seconds` (threads as many as this machine's cores, at most).
    static func run(_ wrk: String, _ url: String, connections: Int, seconds: Int, headers: [String] = []) async throws -> WrkSummary {
        try await run(
            wrk,
            ["-t", String(min(connections, 2)), "-c", String(connections), "-d", "\(seconds)s"] + headers.flatMap { ["-H", $0] } + [url])
    }

    /// Answers that were not refused, a second.
    var rate: Double { Double(requests - refused) / seconds }

    /// `"654.63us"`, `"1.14ms"`, `"1.20s"` in milliseconds.
    static func milliseconds(_ text: Substring) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1000.0), ("m", 60_000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
