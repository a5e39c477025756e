import Contracts
import Foundation
import HuddleModules
import ServiceKitTesting
import Testing

/// A module's listener lets `<module>.http.backlog` connections wait to be accepted (4,096 by
/// default, held by the kernel to `net.core.somaxconn`): a restarted pod's devices reconnect at once.
@Suite("Listen backlog")
struct ListenBacklogTests {
    static let ss = ["/usr/bin/ss", "/bin/ss"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The backlog of the socket listening on `port`, as the kernel holds it (`ss`'s Send-Q of a listener).
    static func backlog(port: Int) throws -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(ss))
        process.arguments = ["-Hltn", "sport = :\(port)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").first.flatMap { Int($0.split(separator: " ")[2]) }
    }

    static var somaxconn: Int {
        (try? String(contentsOfFile: "/proc/sys/net/core/somaxconn", encoding: .utf8)).flatMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        } ?? 4096
    }

    @Test("by default as many as the kernel allows, up to 4,096; as configured otherwise", .enabled(if: ss != nil))
    func backlog() async throws {
        let auth = try #require(HuddleModules.builders[.auth])
        for (config, expected) in [([:], min(4096, Self.somaxconn)), (["auth.http.backlog": "64"], 64)] {
            try await TestStack.with([auth], config: config) { stack in
                let port = try #require(URL(string: stack.url(.auth))?.port)
                #expect(try Self.backlog(port: port) == expected, "\(config)")
            }
        }
    }
}
