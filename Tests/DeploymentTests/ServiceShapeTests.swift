import DeploymentCheck
import Foundation
import Testing

/// Every service keeps the shape `ServiceShape` checks; the checker itself is held to catch a break.
@Suite("Every service has one shape")
struct ServiceShapeTests {
    static let services = ["Auth", "Betting", "Catalog", "Chat", "Games", "Notify", "Search"]

    static func files(of service: String) throws -> [String: String] {
        let folder = WiringTests.root.appendingPathComponent("Services/\(service)")
        let paths = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
        var files: [String: String] = [:]
        for path in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    @Test(
        "each service has its error type, settings that read its keys, controllers that call the domain, a domain on a clock and no dialect, workers in one folder",
        arguments: services)
    func shapeHolds(service: String) throws {
        let files = try Self.files(of: service)
        #expect(files.keys.contains { $0.hasPrefix("Controllers/") }, "\(service) has no controllers")
        #expect(ServiceShape.findings(service: service, files: files) == [])
    }

    @Test(
        "a controller that reaches into a store, a domain that reads the clock or the dialect, a missing error type, a key read outside settings, a worker outside Workers/, a loop by hand: each is named"
    )
    func breaksAreNamed() throws {
        var files = try Self.files(of: "Chat")
        files["Controllers/RoomsController.swift"]! += "\nstruct Peek { let people: any PeopleStore }\n"
        files["Domain/Messages.swift"]! += "\nlet stamped = Date()\nlet fast = database.kind == .postgres\n"
        files["ChatError.swift"] = nil
        files["ChatService.swift"]! += "\nlet burst = reader.integer(\"chat.flood.burst\", default: 10)\n"
        files["Live/Sweeper.swift"] = "struct Sweeper: Service {\n    func run() async { while !Task.isCancelled {} }\n}\n"
        let findings = ServiceShape.findings(service: "Chat", files: files)
        #expect(findings.count == 7, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("Chat/ChatService.swift: reads configuration keys") })
        #expect(findings.contains { $0.hasPrefix("Chat/Live/Sweeper.swift: is a background service outside `Workers/`") })
        #expect(findings.contains { $0.hasPrefix("Chat/Live/Sweeper.swift: loops by hand") })
        #expect(findings.contains { $0.hasPrefix("Chat/Controllers/RoomsController.swift: a controller holds a store") })
        #expect(findings.contains { $0.hasPrefix("Chat/Domain/Messages.swift: reads the system clock") })
        #expect(findings.contains { $0.hasPrefix("Chat/Domain/Messages.swift: branches on the SQL dialect") })
        #expect(findings.contains { $0.hasPrefix("Chat: no `enum ChatError: ProblemError`") })
    }
}
