public import ArgumentParser
import Contracts
public import Foundation
import HuddleEffects
public import Logging
import ModuleLauncher
public import ServiceStore

/// `huddle backup --to DIR`: a copy of every store of `huddle` (the all-in-one's SQLite files under
/// `--data-dir`), taken while it runs, all at one point of every event stream (`SQLiteCut`), with its
/// photos and a manifest. The erasure journal is left out, as it must outlive every backup.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Copy every store of the all-in-one, consistently, while it runs.")

    @Option(help: "The directory the backup is written to (made if missing; a backup already there is replaced).")
    var to: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let logger = bootstrapLogging(level: store.logLevel, label: "huddle.backup")
        let manifest = try await AllInOneBackup.take(
            dataDir: URL(fileURLWithPath: store.dataDir), to: URL(fileURLWithPath: to), now: Effects.system.now, logger: logger)
        let bytes = manifest.stores.reduce(0) { $0 + $1.bytes }
        print("Backed up \(manifest.stores.count) stores (\(bytes / 1024) KB) as they stood at \(manifest.takenAt) into \(to).")
    }
}

/// `huddle restore --from DIR`: puts a backup's stores and photos back under `--data-dir`, with
/// `huddle` stopped. The erasure journal stays as it is: at its next start, auth erases again every
/// account deleted after the backup was taken, before it answers anyone.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Put a backup of the all-in-one back in place (stop huddle first).")

    @Option(help: "The backup's directory (`huddle backup --to`).")
    var from: String

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let manifest = try AllInOneBackup.restore(from: URL(fileURLWithPath: from), into: URL(fileURLWithPath: store.dataDir))
        print(
            "Restored \(manifest.stores.count) stores as they stood at \(manifest.takenAt). At its next start, auth erases again "
                + "the accounts deleted since (\(store.dataDir)/\(AllInOneBackup.journalName)).")
    }
}

/// The all-in-one's backups: every module's `<module>.sqlite` and the photos under `media/`.
public enum AllInOneBackup {
    /// What a backup holds, written beside it as `backup.json`.
    public struct Manifest: Codable, Sendable {
        public let takenAt: Date
        public let stores: [SQLiteCut.Copy]
    }

    /// The erasure journal's file in the data directory (`auth.erasure.journal.file`), which backups leave out.
    public static let journalName = "erasure-journal.jsonl"
    static let manifestName = "backup.json"

    public static func take(dataDir: URL, to backup: URL, now: @escaping @Sendable () -> Date, logger: Logger) async throws -> Manifest {
        let stores = ServiceModule.allCases.map { (name: $0.rawValue, file: dataDir.appendingPathComponent("\($0.rawValue).sqlite")) }
            .filter { FileManager.default.fileExists(atPath: $0.file.path) }
        guard !stores.isEmpty else { throw ValidationError("no store under \(dataDir.path): is it huddle's --data-dir?") }
        let takenAt = now()
        let copies = try await SQLiteCut.copy(stores, into: backup, now: now, logger: logger)
        // Photos are written once under their own names and never changed, so copying them after the
        // stores' instant can only add one no store names yet.
        try replace(backup.appendingPathComponent("media"), with: dataDir.appendingPathComponent("media"))
        let manifest = Manifest(takenAt: takenAt, stores: copies)
        try encoder.encode(manifest).write(to: backup.appendingPathComponent(manifestName), options: .atomic)
        return manifest
    }

    public static func restore(from backup: URL, into dataDir: URL) throws -> Manifest {
        let manifest = try decoder.decode(Manifest.self, from: Data(contentsOf: backup.appendingPathComponent(manifestName)))
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        for store in manifest.stores {
            let file = dataDir.appendingPathComponent("\(store.name).sqlite")
            // A write-ahead log left beside a store belongs to the store replaced, not to the copy.
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
            try replace(file, with: backup.appendingPathComponent("\(store.name).sqlite"))
        }
        try replace(dataDir.appendingPathComponent("media"), with: backup.appendingPathComponent("media"))
        return manifest
    }

    /// `target` becomes a copy of `source` (removed when `source` is missing).
    private static func replace(_ target: URL, with source: URL) throws {
        try? FileManager.default.removeItem(at: target)
        guard FileManager.default.fileExists(atPath: source.path) else { return }
        try FileManager.default.copyItem(at: source, to: target)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
