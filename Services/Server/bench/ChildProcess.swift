import ArgumentParser
import Configuration
import Foundation
import NIOHTTP1
import ServiceHTTP
import ServiceKitTesting

/// A `huddle`, or one module's executable, started from the same build directory as this benchmark.
struct ChildProcess {
    let process: Process

    /// One module's thin executable (`gateway`, `catalog`, …) with `environment` as its configuration.
    static func module(_ name: String, environment: [String: String]) throws -> ChildProcess {
        try program(
            built(name), [],
            environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin", "LOG_LEVEL": "error"]
                .merging(internalKeys.map { (EnvironmentVariablesProvider.variableName(of: $0.key), $0.value) }) { _, key in key }
                .merging(environment) { _, given in given })
    }

    /// `environment` is added to this process's (the `OTEL_*` variables, say); `cores` ("0", "1-3")
    /// keeps it on those (`taskset`).
    static func huddle(
        _ arguments: [String], settings: [String], data: URL, environment: [String: String] = [:], cores: String? = nil
    ) throws -> ChildProcess {
        let arguments =
            arguments + ["--no-demo", "--no-stand-in", "--log-level", "error", "--data-dir", data.path]
            + (internalKeys.map { "\($0.key)=\($0.value)" } + settings).flatMap { ["--set", $0] }
        let environment = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        guard let cores else { return try program(built("huddle"), arguments, environment: environment) }
        return try program(taskset, ["-c", cores, built("huddle").path] + arguments, environment: environment)
    }

    static let taskset = URL(fileURLWithPath: "/usr/bin/taskset")

    /// Keeps every thread of this process on `cores` (`taskset`), and those it starts after.
    static func keepSelf(on cores: String) async throws {
        _ = try await runTool(taskset.path, ["-a", "-p", "-c", cores, "\(ProcessInfo.processInfo.processIdentifier)"])
    }

    /// The same keys for internal calls in every process a benchmark starts, so modules split over
    /// several processes trust each other.
    private static let internalKeys = TestStack.internalKeySettings

    /// A program that runs beside the benchmark until stopped (a module, nginx), its output discarded;
    /// with this process's environment unless given one.
    static func program(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return ChildProcess(process: process)
    }

    /// An executable of the same build as this benchmark.
    static func built(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// VmRSS from /proc.
    func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// CPU time the process has used so far, user and kernel, from /proc (Linux; 0 elsewhere).
    func cpuSeconds() -> Double { Self.cpuSeconds(ofProcess: "\(process.processIdentifier)") }

    /// CPU time this process and its running children have used so far (nginx's master and its
    /// worker): the children are read from /proc/PID/task/PID/children.
    func cpuSecondsWithChildren() -> Double {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return cpuSeconds() + children.split(separator: " ").map { Self.cpuSeconds(ofProcess: String($0)) }.reduce(0, +)
    }

    /// CPU time `process` ("self", or a pid) has used so far: utime and stime of /proc/PID/stat, in
    /// clock ticks. The command name, which may hold spaces, ends at the last ')'.
    static func cpuSeconds(ofProcess process: String) -> Double {
        guard let stat = try? String(contentsOfFile: "/proc/\(process)/stat", encoding: .utf8),
            let end = stat.lastIndex(of: ")")
        else { return 0 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // After the name: state is field 3, utime 14 and stime 15.
        guard fields.count > 12, let user = Double(fields[11]), let kernel = Double(fields[12]) else { return 0 }
        return (user + kernel) / Double(sysconf(Int32(_SC_CLK_TCK)))
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

    /// Runs a load tool (wrk, pgbench) to its end with its output in a file, read once it has exited.
    /// Waited for without holding a thread: a benchmark's modules may run in this process (`search`),
    /// on a concurrency pool of one thread a core.
    static func runTool(_ tool: String, _ arguments: [String]) async throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("load-\(UUID().uuidString).txt")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try await withCheckedThrowingContinuation { (exited: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in exited.resume() }
            do { try process.run() } catch { exited.resume(throwing: error) }
        }
        guard process.terminationStatus == 0 else { throw ValidationError("\(tool) \(arguments.joined(separator: " ")) failed") }
        return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
    }
}
