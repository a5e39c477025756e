import Foundation
import ServiceKitTesting

#if canImport(Glibc)
    import Glibc
#endif

/// The `betting` executable in its own process, so a test can kill it with SIGKILL mid-way and start
/// it again on the same store and port, as a crashed container would be restarted.
final class BettingProcess: @unchecked Sendable {
    // @unchecked: `process` and `exited` are only touched by the test's single driver task (start,
    // kill, stop).
    let port: Int
    private let environment: [String: String]
    private var process: Process?
    /// Ends when the running process has exited: waiting on it suspends, where `waitUntilExit()`
    /// would hold one of the test process's two cooperative threads and stall every other test.
    private var exited: AsyncStream<Void>?

    var url: String { "http://127.0.0.1:\(port)" }

    init(environment: [String: String]) throws {
        port = try Self.freePort()
        var values = environment
        values["BETTING_HTTP_HOST"] = "127.0.0.1"
        values["BETTING_HTTP_PORT"] = String(port)
        values["PATH"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        self.environment = values
    }

    /// Where `swift build` put the executables: beside the test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("betting")
    }

    static var isBuilt: Bool { FileManager.default.isExecutableFile(atPath: executable.path) }

    /// Starts the process and waits until it answers `/health`.
    func start() async throws {
        let process = Process()
        process.executableURL = Self.executable
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        self.process = process
        self.exited = exited
        let client = TestClient(baseURL: url)
        for _ in 0..<400 {
            if (try? await client.get("/health").status) == 200 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw BettingProcessFailure(description: "betting did not answer /health within ten seconds")
    }

    /// SIGKILL: no graceful shutdown, open transactions abandoned.
    func kill() async {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        for await _ in exited ?? AsyncStream { $0.finish() } {}
    }

    func stop() async {
        guard let process, process.isRunning else { return }
        process.terminate()
        for await _ in exited ?? AsyncStream { $0.finish() } {}
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw BettingProcessFailure(description: "no socket") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw BettingProcessFailure(description: "cannot bind a port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct BettingProcessFailure: Error, CustomStringConvertible {
    let description: String
}
