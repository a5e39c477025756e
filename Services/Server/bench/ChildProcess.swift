import ArgumentParser
import Foundation
import NIOHTTP1
import ServiceKitTesting

/// A `huddle` started from the same build directory as this benchmark.
struct ChildProcess {
    let process: Process

    static func huddle(_ arguments: [String], settings: [String], data: URL) throws -> ChildProcess {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("huddle")
        let process = Process()
        process.executableURL = binary
        process.arguments =
            arguments + ["--no-demo", "--no-stand-in", "--log-level", "error", "--data-dir", data.path]
            + settings.flatMap { ["--set", $0] }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return ChildProcess(process: process)
    }

    /// VmRSS from /proc.
    func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    static func waitForHealth(_ url: String) async throws {
        let client = TestClient(baseURL: url)
        // A release build with its stores to migrate may take a while on a busy machine.
        guard
            try await eventually(
                within: .seconds(30), every: .milliseconds(100), { (try? await client.raw(.GET, "/health"))?.status == 200 })
        else { throw ValidationError("\(url) did not become healthy") }
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
