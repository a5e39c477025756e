import Contracts
import DeploymentCheck
import Foundation
import Testing

/// Every service keeps the shape `ServiceShape` checks; the checker itself is held to catch a break.
@Suite("Every service has one shape")
struct ServiceShapeTests {
    /// Every module with a folder under `Services/`: all of them but the gateway, which keeps no store
    /// and is held to the shape of an edge instead.
    static let services = ServiceModule.allCases.filter { $0 != .gateway }.map {
        $0.rawValue.prefix(1).uppercased() + $0.rawValue.dropFirst()
    }

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
        "each service has its error type, settings that read its keys, controllers that call the domain, a domain with no dialect, workers in one folder",
        arguments: services)
    func shapeHolds(service: String) throws {
        let files = try Self.files(of: service)
        #expect(files.keys.contains { $0.hasPrefix("Controllers/") }, "\(service) has no controllers")
        #expect(ServiceShape.findings(service: service, files: files) == [])
    }

    @Test(
        "a controller that reaches into a store, a domain that branches on the dialect, a missing error type, a key read outside settings, a worker outside Workers/, a loop by hand: each is named"
    )
    func breaksAreNamed() throws {
        var files = try Self.files(of: "Chat")
        files["Controllers/RoomsController.swift"]! += "\nstruct Peek { let people: any PeopleStore }\n"
        files["Domain/Messages.swift"]! += "\nlet fast = database.kind == .postgres\n"
        files["ChatError.swift"] = nil
        files["ChatService.swift"]! += "\nlet burst = reader.integer(\"chat.flood.burst\", default: 10)\n"
        files["Live/Sweeper.swift"] = "struct Sweeper: Service {\n    func run() async { while !Task.isCancelled {} }\n}\n"
        let findings = ServiceShape.findings(service: "Chat", files: files)
        #expect(findings.count == 6, "\(findings)")
        #expect(findings.contains { $0.hasPrefix("Chat/ChatService.swift: reads configuration keys") })
        #expect(findings.contains { $0.hasPrefix("Chat/Live/Sweeper.swift: is a background service outside `Workers/`") })
        #expect(findings.contains { $0.hasPrefix("Chat/Live/Sweeper.swift: loops by hand") })
        #expect(findings.contains { $0.hasPrefix("Chat/Controllers/RoomsController.swift: a controller holds a store") })
        #expect(findings.contains { $0.hasPrefix("Chat/Domain/Messages.swift: branches on the SQL dialect") })
        #expect(findings.contains { $0.hasPrefix("Chat: no `enum ChatError: ProblemError`") })
    }

    @Test(
        "a handler or use case that reaches into another use case's store, handlers not named for what they take, a controller outside Controllers/, one that calls another module or registers an anonymous route handler: each is named"
    )
    func handlerAndControllerBreaksAreNamed() throws {
        var files = try Self.files(of: "Games")
        files["Domain/GamesEvents.swift"]! +=
            "\nextension GamesEvents {\n    func peek(on sql: any SQLDatabase) async throws { _ = try await games.games.lock(GameID(), viewer: nil, on: sql) }\n}\n"
        files["Domain/Games.swift"]! += "\nextension Games {\n    static let handlers = EventHandlers<Int> { _ in }\n}\n"
        files["Domain/Peek.swift"] = "struct PeekController: Controller {\n    func register() {}\n}\n"
        files["Controllers/GamesController.swift"]! += "\nlet people = AuthClient.self\n"
        files["Controllers/RoundsController.swift"]! +=
            "\nfunc more(on router: Router<HuddleRequestContext>) {\n    router.on(GamesAPI.round) { _, _ in nil }\n}\n"
        files["Controllers/LiveController.swift"]! += "\nlet x = router.on(GamesAPI.matches, conditional: { _, _ in nil })\n"
        let findings = ServiceShape.findings(service: "Games", files: files)
        #expect(findings.count == 6, "\(findings)")
        for path in ["RoundsController", "LiveController"] {
            #expect(
                findings.contains("Games/Controllers/\(path).swift: a controller registers an anonymous handler; name it (`use: myGames`)"))
        }
        #expect(
            findings.contains("Games/Domain/GamesEvents.swift: reaches into another use case's store (`games.games`); call the use case"))
        #expect(findings.contains { $0.hasPrefix("Games/Domain/Games.swift: registers event handlers in `Games`") })
        #expect(findings.contains("Games/Domain/Peek.swift: is a controller outside `Controllers/`"))
        #expect(findings.contains("Games/Controllers/GamesController.swift: a controller calls another module; a domain type does"))
        #expect(ServiceShape.findings(service: "Games", files: try Self.files(of: "Games")) == [])
    }
}
