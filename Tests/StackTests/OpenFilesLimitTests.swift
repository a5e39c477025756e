import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

/// Every executable raises its soft limit on open files to the hard limit at start: a container may
/// be started with 1,024 (containerd 2), and a module holds a descriptor a socket.
@Suite("Open files")
struct OpenFilesLimitTests {
    @Test("the soft limit is raised to the hard limit, and never lowered")
    func raised() {
        typealias Limits = OpenFilesLimit.Limits
        // Linux: no ceiling but the hard limit.
        #expect(OpenFilesLimit.raised(Limits(soft: 1024, hard: 524_288), ceiling: nil) == Limits(soft: 524_288, hard: 524_288))
        #expect(OpenFilesLimit.raised(Limits(soft: 20_000, hard: 20_000), ceiling: nil) == Limits(soft: 20_000, hard: 20_000))
        // macOS: an unlimited hard limit, and a soft one the system holds to 10,240.
        #expect(
            OpenFilesLimit.raised(Limits(soft: 256, hard: .max), ceiling: 10_240) == Limits(soft: 10_240, hard: .max))
        #expect(OpenFilesLimit.raised(Limits(soft: 12_000, hard: .max), ceiling: 10_240) == Limits(soft: 12_000, hard: .max))
    }

    @Test(
        "a module started with a soft limit of 256 raises it, and holds more connections than that",
        // Read from /proc, so on Linux.
        .enabled(if: ServiceProcess.isBuilt("auth") && FileManager.default.fileExists(atPath: "/proc/self/limits")))
    func moduleStartedLow() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("open-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Auth alone: the modules it calls are named (it refuses to start without their addresses), none runs.
        var settings = [
            "auth.db.url": "sqlite:\(directory.path)/auth.sqlite", "log.level": "error",
        ]
        for module in ServiceModule.allCases where module != .auth { settings["\(module.rawValue).url"] = "http://127.0.0.1:1" }
        let auth = try ServiceProcess("auth", settings: settings, openFilesSoftLimit: 256)
        try await auth.start()
        defer { Task { await auth.stop() } }

        let pid = try #require(auth.processIdentifier)
        let limits = try String(contentsOfFile: "/proc/\(pid)/limits", encoding: .utf8)
        let openFiles = try #require(limits.split(separator: "\n").first { $0.hasPrefix("Max open files") })
        let numbers = openFiles.split(separator: " ").compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] == numbers[1] && numbers[0] > 256, "\(openFiles)")

        // More connections than the limit it was started with, each answered while all stay open.
        var connections: [RawConnection] = []
        defer { for connection in connections { Task { await connection.close() } } }
        for _ in 0..<400 { connections.append(try await RawConnection.open(baseURL: auth.url)) }
        for connection in connections { try await connection.send("GET /health/live HTTP/1.1\r\nHost: huddle\r\n\r\n") }
        #expect(try await eventually { connections.allSatisfy { $0.status == 200 } })
        #expect(connections.filter { $0.status == 200 }.count == 400)
    }
}
