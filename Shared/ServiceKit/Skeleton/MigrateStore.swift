public import Configuration
public import Contracts
import HuddleEffects
public import Logging
public import ServiceHTTP
public import ServiceStore

/// Applies a module's migrations to its store, then closes it: what `<module> --migrate` runs, once
/// a rollout (the production overlay's `migrate-<module>` Jobs), while the module's pods, started with
/// `<module>.db.migrate=wait`, wait for the schema instead of each applying it.
public func migrateStore(_ module: ServiceModule, reader: ConfigReader, logger: Logger, _ migrations: [Migration]) async throws {
    let database = try await Database.open(url: reader.databaseURL(for: module), now: Effects.system.now, logger: logger)
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await database.run() }
        defer { group.cancelAll() }
        try await database.migrate(migrations, logger: logger)
    }
}
