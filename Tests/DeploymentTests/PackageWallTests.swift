import Contracts
import DeploymentCheck
import Foundation
import ServerContracts
import Testing

/// What an app compiles holds nothing of the servers' insides; the check is held to catch a planted leak.
@Suite("HuddleKit's package holds nothing of the server")
struct PackageWallTests {
    static let package = WiringTests.root.appendingPathComponent("Shared/HuddleKit")

    static func sources() throws -> [String: String] {
        let folder = package.appendingPathComponent("Sources")
        let paths = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
        var files: [String: String] = [:]
        for path in paths where path.hasSuffix(".swift") {
            files[path] = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
        }
        return files
    }

    static func manifest() throws -> String {
        try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
    }

    @Test("no internal operation, event, console page or schema machinery in HuddleKit's package, which resolves nothing")
    func appPackageIsClean() throws {
        #expect(try PackageWalls.appPackageFindings(manifest: Self.manifest(), files: Self.sources()) == [])
    }

    @Test("the operations an app sees are the public ones: none internal, none a console page")
    func appOperationsArePublic() {
        #expect(AppAPI.operations.allSatisfy { $0.access != .internalCaller && !$0.path.text.hasPrefix(Routes.internalPrefix) })
        #expect(!AppAPI.operations.contains { $0.isPage })
        let described = Set(AppAPI.operations.map(\.name))
        #expect(API.internalOperations.allSatisfy { !described.contains($0.name) })
    }

    @Test("a planted internal description, event, console page, schema reader or package is named")
    func plantedLeaksAreNamed() throws {
        var files = try Self.sources()
        files["Contracts/API/ChatAPI.swift"]! += """

            extension ChatAPI { static let peek = "/internal/chat/rooms" }
            let kind = GameEvent.self
            let page = HTMLPage.self
            let reader = SchemaReader()
            """
        let manifest = try Self.manifest().replacingOccurrences(
            of: "\n    targets: [", with: "\n    dependencies: [.package(path: \"../..\")],\n    targets: [")
        let findings = PackageWalls.appPackageFindings(manifest: manifest, files: files)
        #expect(
            findings == [
                "Package.swift: resolves a package; an app must resolve nothing of the server",
                "Contracts/API/ChatAPI.swift: describes an internal operation", "Contracts/API/ChatAPI.swift: names an event",
                "Contracts/API/ChatAPI.swift: describes a console page", "Contracts/API/ChatAPI.swift: reads or checks schemas",
            ])
    }
}

/// The gateway keeps no store, and the manifest lets it link none.
@Suite("The gateway links no database driver")
struct GatewayLinksNoStoreTests {
    static func manifest() throws -> String { try WiringTests.text("Package.swift") }

    @Test("the gateway's executable links no database driver and no layer with a store; a module's does")
    func gatewayLinksNoStore() throws {
        let manifest = try Self.manifest()
        #expect(PackageWalls.storeFindings(manifest: manifest, executable: "GatewayServer") == [])
        // The reading is held to the graph: a module with a store links them through ServiceKit.
        #expect(PackageWalls.storeFindings(manifest: manifest, executable: "AuthServer").contains("AuthServer links SQLiteKit"))
    }

    @Test("a driver or a store layer planted in the gateway's dependencies is named")
    func plantedDriverIsNamed() throws {
        let manifest = try Self.manifest()
        let planted = manifest.replacingOccurrences(
            of: #"name: "Gateway",\#n            dependencies: ["#,
            with: #"name: "Gateway",\#n            dependencies: [.sqlKit, "ServiceStore", "#)
        #expect(planted != manifest)
        let findings = PackageWalls.storeFindings(manifest: planted, executable: "GatewayServer")
        #expect(findings.contains("GatewayServer links SQLKit"))
        #expect(findings.contains("GatewayServer links ServiceStore"))
        #expect(findings.contains("GatewayServer links PostgresNIO"))
    }
}

/// `Date()` is read in one place.
@Suite("The servers read the clock in one place")
struct OneClockTests {
    static func serverSources() throws -> [String: String] {
        var files: [String: String] = [:]
        for folder in ["Services", "Shared"] {
            let root = WiringTests.root.appendingPathComponent(folder)
            let paths = try #require(FileManager.default.enumerator(atPath: root.path)).compactMap { $0 as? String }
            for path in paths where path.hasSuffix(".swift") && !path.hasPrefix("HuddleKit/") {
                files["\(folder)/\(path)"] = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            }
        }
        return files
    }

    @Test("no source of the servers but Effects reads the system clock")
    func oneClock() throws {
        let files = try Self.serverSources()
        #expect(files[OneClock.home]?.contains("Date()") == true)
        #expect(OneClock.findings(files: files) == [])
    }

    @Test("a store, a provider or a builder that reads the clock is named; a conversion is not")
    func plantedReadsAreNamed() throws {
        var files = try Self.serverSources()
        files["Services/Auth/Store/FollowStore.swift"]! += "\nlet stamped = Date()\n"
        files["Services/Catalog/Providers/WeatherProvider.swift"]! += "\nlet clock: () -> Date = Date.init\n"
        files["Services/Games/GamesService.swift"]! += "\nlet later = Date.now\nlet parsed = Date.init(timeIntervalSince1970: 0)\n"
        #expect(
            OneClock.findings(files: files) == [
                "Services/Auth/Store/FollowStore.swift: reads the system clock; take `now` from the builder's `Effects`",
                "Services/Catalog/Providers/WeatherProvider.swift: reads the system clock; take `now` from the builder's `Effects`",
                "Services/Games/GamesService.swift: reads the system clock; take `now` from the builder's `Effects`",
            ])
    }
}
