public import AsyncHTTPClient
public import Configuration
import Contracts
import Foundation
import HuddleEffects
public import Logging
import ServiceHTTP
import ServiceStore

/// `huddle import venues`: grounds from an open-data source written into catalog's store (the one
/// `catalog.db.url` names), each with its event, which the running catalog sends to search as any
/// other change. The store is migrated first, so an import may come before catalog's first start.
public enum VenueImport {
    /// The open-data sources an import reads.
    public enum Source: String, CaseIterable, Sendable {
        /// The City of Casey's sports grounds (Opendatasoft Explore API v2.1).
        case casey

        public var defaultURL: String { CaseyOpenData.defaultURL }
        public var defaultDataset: String { CaseyOpenData.defaultDataset }
    }

    public static func run(
        _ source: Source, url: String, dataset: String, reader: ConfigReader, http: HTTPClient, logger: Logger
    ) async throws -> VenueImportSummary {
        let database = try await Database.open(url: reader.databaseURL(for: .catalog), now: Effects.system.now, logger: logger)
        return try await withThrowingTaskGroup(of: VenueImportSummary?.self) { group in
            group.addTask {
                try await database.run()
                return nil
            }
            defer { group.cancelAll() }
            try await database.migrate(CatalogMigrations.all, logger: logger)
            let places = Places(database: database, courses: SQLCourseStore(now: database.now), venues: SQLVenueStore(now: database.now))
            let grounds = try await CaseyOpenData(baseURL: url, dataset: dataset, http: http).grounds()
            var summary = try await places.importVenues(grounds.venues)
            summary.skipped = grounds.skipped
            return summary
        }
    }
}
