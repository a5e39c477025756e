import AsyncHTTPClient
import CatalogService
import Configuration
import Contracts
import Foundation
import Logging
import ModuleLauncher
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

/// The grounds of the City of Casey's open data become venues a cricketer finds near him.
@Suite("Grounds from open data")
struct VenueImportTests {
    @Test(
        "huddle import venues --source casey reads the portal's pages into venues search finds, and a second import changes nothing",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func caseyGrounds(store: TestStore) async throws {
        let standIn = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        try await withServerOnPort0({ buildProviderStandIns(reader: standIn, logger: Logger(label: "stand-in"), onListening: $0) }) {
            portal in
            // A file for SQLite, as `huddle` keeps it: the import and the running catalog share it.
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-import-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
            let catalogStore = store == .sqlite ? "sqlite:\(file)" : try await store.freshDatabaseURL()
            try await StackTests.withStack(store: store, config: ["catalog.db.url": catalogStore]) { gateway in
                let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["catalog.db.url": catalogStore]))
                func importGrounds() async throws -> VenueImportSummary {
                    try await VenueImport.run(
                        .casey, url: portal, dataset: OpenDataStandIn.dataset, reader: reader, http: .shared,
                        logger: Logger(label: "import"))
                }
                // An administrator made one of the grounds by hand before: the import takes it over.
                let admin = try await StackTests.administrator(gateway)
                let byHand = try await gateway.value(
                    CatalogAPI.createVenue,
                    body: CreateVenueRequest(name: "sweeney reserve", location: Location(lat: -38.0220, lng: 145.2950), sports: [.cricket]),
                    token: admin.accessToken)
                let first = try await importGrounds()
                #expect(first == VenueImportSummary(created: OpenDataStandIn.grounds.count - 1, updated: 1, unchanged: 0, skipped: 0))
                let adopted = try await gateway.value(CatalogAPI.venue, byHand.id, token: admin.accessToken)
                #expect(adopted.name == "Sweeney Reserve" && adopted.postcode == "3805" && adopted.sports == [.cricket, .football])

                let player = try await gateway.register(name: "Chris Cricketer")
                let caseyFields = Coordinates(lat: -38.1038, lng: 145.3140)
                func nearest() async throws -> [Venue] {
                    try await gateway.value(SearchAPI.venues, query: Query.place(caseyFields) + Query.limit(5), token: player.accessToken)
                        .items.map(\.item)
                }
                #expect(try await eventually { try await nearest().first?.name == "Casey Fields" })
                let fields = try #require(try await nearest().first)
                #expect(fields.postcode == "3977" && fields.sports == [.football, .cricket, .soccer])
                #expect(fields.location.address == "160 Berwick-Cranbourne Road, Cranbourne East VIC 3977")
                #expect(fields.description?.hasPrefix("Regional sports precinct") == true)

                let again = try await importGrounds()
                #expect(again == VenueImportSummary(created: 0, updated: 0, unchanged: OpenDataStandIn.grounds.count, skipped: 0))
                let listed = try await gateway.value(CatalogAPI.venues, query: Query.limit(100), token: player.accessToken).items
                #expect(listed.filter { $0.name == "Casey Fields" }.count == 1)
            }
        }
    }
}
