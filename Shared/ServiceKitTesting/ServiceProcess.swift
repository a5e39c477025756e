import Configuration
public import Foundation
import NIOHTTP1
import ServiceHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// One service's executable (`betting`, `notify`) in its own process, so a test can kill it with
/// SIGKILL mid-way and start it again on the same store and port, as a crashed container would be
/// restarted.
public final class ServiceProcess: @unchecked Sendable {
    // @unchecked: `process` and `exited` are only touched by the test's single driver task (start,
    // kill, stop).
    public let port: Int
    private let name: String
    private let environment: [String: String]
    /// The soft limit on open files the process starts with, when not this process's.
    private let openFilesSoftLimit: Int?
    private var process: Process?
    /// Ends when the running process has exited: waiting on it suspends, where `waitUntilExit()`
    /// would hold one of the test process's two cooperative threads and stall every other test.
    private var exited: AsyncStream<Void>?

    public var url: String { "http://127.0.0.1:\(port)" }

    /// The running process's id.
    public var processIdentifier: Int32? { process?.processIdentifier }

    /// `settings` are dotted keys (`notify.db.url`), given to the process as the environment
    /// variables of those keys, over the tests' internal keys (`TestStack.internalKeySettings`); it
    /// listens on a free port of 127.0.0.1. `openFilesSoftLimit` starts it with that soft limit on
    /// open files, as a container runtime may.
    public init(_ name: String, settings: [String: String], openFilesSoftLimit: Int? = nil) throws {
        self.name = name
        self.openFilesSoftLimit = openFilesSoftLimit
        port = try Self.freePort()
        var values = TestStack.internalKeySettings.merging(settings) { _, given in given }
        values["\(name).http.host"] = "127.0.0.1"
        values["\(name).http.port"] = String(port)
        values["path"] = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        environment = Dictionary(values.map { (EnvironmentVariablesProvider.variableName(of: $0.key), $0.value) }) { _, last in last }
    }

    /// Where `swift build` put the executable: beside the test bundle.
    public static func executable(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    public static func isBuilt(_ name: String) -> Bool { FileManager.default.isExecutableFile(atPath: executable(name).path) }

    /// Starts the process and waits until it answers `/health`.
    public func start() async throws {
        let process = Process()
        if let openFilesSoftLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -S -n \(openFilesSoftLimit) && exec \"$0\"", Self.executable(name).path]
        } else {
            process.executableURL = Self.executable(name)
        }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        // `HUDDLE_TEST_PROCESS_LOGS=<folder>` keeps each process's log there, to see why one did not start.
        if let folder = ProcessInfo.processInfo.environment["HUDDLE_TEST_PROCESS_LOGS"],
            FileManager.default.createFile(atPath: "\(folder)/\(name)-\(port).log", contents: nil),
            let log = FileHandle(forWritingAtPath: "\(folder)/\(name)-\(port).log")
        {
            process.standardError = log
        } else {
            process.standardError = FileHandle.nullDevice
        }
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try process.run()
        self.process = process
        self.exited = exited
        let client = TestClient(baseURL: url)
        guard try await eventually({ (try? await client.raw(.GET, "/health").status) == 200 }) else {
            throw ServiceProcessFailure(description: "\(name) did not answer /health within \(patience)")
        }
    }

    /// SIGKILL: no graceful shutdown, open transactions abandoned.
    public func kill() async {
        guard let process, process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        for await _ in exited ?? AsyncStream { $0.finish() } {}
    }

    public func stop() async {
        guard let process, process.isRunning else { return }
        process.terminate()
        for await _ in exited ?? AsyncStream { $0.finish() } {}
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    public static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ServiceProcessFailure(description: "no socket") }
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
        guard bound else { throw ServiceProcessFailure(description: "cannot bind a port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct ServiceProcessFailure: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}
