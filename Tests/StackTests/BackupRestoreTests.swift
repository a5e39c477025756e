import Contracts
import Foundation
import HuddleModules
import ServiceKitTesting
import ServiceStore
import Testing

/// The all-in-one's stores backed up while it runs and put back after a player deleted their account.
/// On its own after the suite: while the backup holds every store's write lock, the stack's writers wait
/// on the thread pool SQLite work shares with every other stack the test process runs.
@Suite("Backups of the all-in-one")
struct BackupRestoreTests {
    @Test(
        "restored from a backup taken before a player deleted their account, the stack keeps them deleted, holds what the rest did until the backup, and events flow again",
        StackTests.embeddedOnly, StackTests.onTheirOwn, arguments: JournalPlace.available)
    func deletionsStayDeleted(journal: JournalPlace) async throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("restore-\(UUID().uuidString)")
        let backupDir = dataDir.appendingPathExtension("backup")
        defer {
            try? FileManager.default.removeItem(at: dataDir)
            try? FileManager.default.removeItem(at: backupDir)
        }
        var config = Dictionary(
            uniqueKeysWithValues: ServiceModule.allCases.filter { $0 != .gateway }.map {
                ("\($0.rawValue).db.url", "sqlite:\(dataDir.path)/\($0.rawValue).sqlite")
            })
        let journalFile = dataDir.appendingPathComponent(AllInOneBackup.journalName).path
        config["auth.erasure.journal.file"] = journalFile
        if case .bucket = journal, let s3 = JournalPlace.s3URL {
            // As auth's pods keep it in production: in a bucket every pod reaches, apart from the backups.
            config.merge([
                "auth.erasure.journal.s3.url": s3, "auth.erasure.journal.s3.bucket": "journal-\(UUID().uuidString.prefix(8).lowercased())",
                "auth.erasure.journal.s3.access-key": "huddle-test", "auth.erasure.journal.s3.secret-key": "huddle-test-secret",
                "auth.erasure.journal.s3.create-bucket": "true",
            ]) { _, new in new }
        }
        let run = UUID().uuidString.prefix(8).lowercased()
        let (annEmail, boEmail, password) = ("ann-\(run)@example.com", "bo-\(run)@example.com", "correct horse battery")

        let (team, ann) = try await StackTests.withStack(store: .sqlite, config: config) { gateway in
            let ann = try await gateway.register(name: "Ann Restored", email: annEmail)
            let bo = try await gateway.register(name: "Bo Restored", email: boEmail)
            let team = try await gateway.value(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Restored \(run)", sport: .soccer, privacy: .public, location: Location(lat: 59.44, lng: 24.75), ageGroup: .adult,
                    gender: .coed, skill: .any),
                token: bo.accessToken)
            _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: ann.accessToken)
            // Taken while the stack runs, as an operator takes it: by `huddle backup`, a process of its own.
            try await Self.huddle(["backup", "--to", backupDir.path, "--data-dir", dataDir.path])
            let manifest = try Self.manifest(of: backupDir)
            #expect(manifest.stores.map(\.name).contains("auth") && manifest.stores.allSatisfy { $0.bytes > 0 })
            #expect(manifest.stores.contains { $0.name == "catalog" && ($0.lastEvent ?? 0) > 0 })
            let deleted = try await gateway.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: password), token: ann.accessToken)
            #expect(deleted.status == 204)
            if case .bucket = journal { #expect(!FileManager.default.fileExists(atPath: journalFile), "the bucket is the journal") }
            _ = try await gateway.value(
                CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(name: "Renamed \(run)"), token: bo.accessToken)
            return (team, ann.user)
        }

        try await Self.huddle(["restore", "--from", backupDir.path, "--data-dir", dataDir.path])
        try await StackTests.withStack(store: .sqlite, config: config) { gateway in
            // The backup held Ann's account; auth erased it again before answering anyone.
            let annAgain = try await gateway.call(AuthAPI.login, body: LoginRequest(email: annEmail, password: password))
            #expect(annAgain.status == 401)
            let bo = try await gateway.value(AuthAPI.login, body: LoginRequest(email: boEmail, password: password))
            // What happened after the backup is gone (the team's old name), and the other modules erase Ann again.
            #expect(try await gateway.value(CatalogAPI.team, team.id, token: bo.accessToken).name == "Restored \(run)")
            #expect(
                try await eventually {
                    try await gateway.value(CatalogAPI.members, team.id, token: bo.accessToken).items.map(\.userId) == [bo.user.id]
                })
            #expect(try await gateway.call(AuthAPI.profile, ann.id, token: bo.accessToken).status == 404)
            // Events flow again from where the backup stood: Bo's new game gets its chat room.
            let game = try await gateway.value(
                GamesAPI.createGame,
                body: CreateGameRequest(kind: .team, teamId: team.id, startsAt: Date(timeIntervalSinceNow: 86_400).rounded()),
                token: bo.accessToken)
            #expect(
                try await eventually {
                    try await gateway.value(ChatAPI.rooms, query: Query.limit(100), token: bo.accessToken).items.contains {
                        $0.subjectId == game.id.description
                    }
                })
        }
    }
}

/// Where auth keeps its erasure journal: a file beside the stores, or a bucket (moto's in CI,
/// `HUDDLE_TEST_S3_URL`), where the file must then stay empty.
enum JournalPlace: Sendable, CustomStringConvertible {
    case file, bucket
    static let s3URL = ProcessInfo.processInfo.environment["HUDDLE_TEST_S3_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var available: [JournalPlace] { s3URL == nil ? [.file] : [.file, .bucket] }
    var description: String { self == .file ? "a file" : "a bucket" }
}

extension BackupRestoreTests {
    /// Runs the built `huddle` with `arguments` and waits for it, without holding a thread; it must succeed.
    static func huddle(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = ServiceProcess.executable("huddle")
        process.arguments = arguments + ["--log-level", "error"]
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        #expect(status == 0, "huddle \(arguments.joined(separator: " "))")
    }

    static func manifest(of backup: URL) throws -> AllInOneBackup.Manifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(AllInOneBackup.Manifest.self, from: Data(contentsOf: backup.appendingPathComponent("backup.json")))
    }
}

extension Date {
    fileprivate func rounded() -> Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
