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

    @Test("each service has its error type, controllers that call the domain, a domain on a clock and no dialect", arguments: services)
    func shapeHolds(service: String) throws {
        let files = try Self.files(of: service)
        #expect(files.keys.contains { $0.hasPrefix("Controllers/") }, "\(service) has no controllers")
        #expect(ServiceShape.findings(service: service, files: files) == [])
    }

    @Test("a controller that reaches into a store, a domain that reads the clock or the dialect, a missing error type: each is named")
    func breaksAreNamed() throws {
        var files = try Self.files(of: "Chat")
        files["Controllers/RoomsController.swift"]! += "\nstruct Peek { let people: any PeopleStore }\n"
        files["Domain/Messages.swift"]! += "\nlet stamped = Date()\nlet fast = database.kind == .postgres\n"
        files["ChatError.swift"] = nil
        let findings = ServiceShape.findings(service: "Chat", files: files)
        #expect(findings.count == 4, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("Chat/Controllers/RoomsController.swift: a controller holds a store") })
        #expect(findings.contains { $0.hasPrefix("Chat/Domain/Messages.swift: reads the system clock") })
        #expect(findings.contains { $0.hasPrefix("Chat/Domain/Messages.swift: branches on the SQL dialect") })
        #expect(findings.contains { $0.hasPrefix("Chat: no `enum ChatError: ProblemError`") })
    }
}
