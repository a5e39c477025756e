public import ArgumentParser
import AsyncHTTPClient
public import CatalogService
import Configuration
import Contracts
import Foundation
import ModuleLauncher
import ServiceHTTP

/// `huddle import venues --source casey [--url …]`: grounds from open data into catalog's store.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import data from outside sources.", subcommands: [ImportVenuesCommand.self])
}

/// Creates or updates a venue for each ground of the source, by the source's own id, so running it
/// again changes only what the source changed. It writes to the store `catalog.db.url` names (in
/// `huddle`, `data/catalog.sqlite`), and a running catalog sends the changes on to search.
struct ImportVenuesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "venues", abstract: "Create or update venues from an open-data source of sports grounds.")

    @Option(help: "The source: \(VenueImport.Source.allCases.map(\.rawValue).joined(separator: ", ")).")
    var source: VenueImport.Source

    @Option(help: "The source's base URL (its Opendatasoft portal); in development, the stand-in, e.g. http://localhost:8090.")
    var url: String?

    @Option(help: "The dataset of grounds on the portal.")
    var dataset: String?

    /// `--data-dir` (as `huddle` was started with), `--set catalog.db.url=…`, `--log-level`.
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let logger = bootstrapLogging(level: store.logLevel, label: "huddle.import")
        let reader = try await ConfigReader.huddle(
            overrides: try parseSettings(store.set), defaults: ["catalog.db.url": "sqlite:\(store.dataDir)/catalog.sqlite"])
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let summary = try await VenueImport.run(
                source, url: url ?? source.defaultURL, dataset: dataset ?? source.defaultDataset, reader: reader, http: http,
                logger: logger)
            try await http.shutdown()
            print("Venues from \(source.rawValue) into \(Self.described(reader.databaseURL(for: .catalog))): \(summary).")
        } catch {
            try? await http.shutdown()
            throw error
        }
    }
}

extension ImportVenuesCommand {
    /// A store's URL without its password, to say where an import wrote.
    static func described(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "xxxxx"
        return components.string ?? url
    }
}

extension VenueImport.Source: ExpressibleByArgument {}
