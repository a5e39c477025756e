import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// A ground as an open-data source describes it, made into what a venue holds.
struct ImportedVenue: Sendable, Equatable {
    /// The source and its record's id (`casey:R0042`): the same record always updates the same venue.
    var source: String
    var name: String
    var location: Location
    var sports: [Sport]
    var description: String?
    var postcode: String?
    var website: String?
}

/// What an import did: each record's venue created, changed, or already as the record says.
public struct VenueImportSummary: Sendable, Equatable, CustomStringConvertible {
    public var created: Int
    public var updated: Int
    public var unchanged: Int
    /// Records without a name, a place or a sport: left out.
    public var skipped: Int

    public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }

    public var description: String { "\(created) created, \(updated) updated, \(unchanged) unchanged, \(skipped) skipped" }
}

extension Places {
    /// Creates or updates the venue of each record, each in its own transaction with its event (so search
    /// indexes it); a record that says what its venue already holds changes nothing, so importing twice
    /// changes nothing the second time.
    func importVenues(_ records: [ImportedVenue]) async throws -> VenueImportSummary {
        enum Outcome { case created, updated, unchanged }
        var summary = VenueImportSummary()
        for record in records {
            let outcome = try await database.transaction { sql -> Outcome in
                var existing = try await venues.venue(source: record.source, on: sql)
                if existing == nil, let made = try await venueMadeByHand(for: record, on: sql) {
                    try await venues.adopt(made.id, source: record.source, on: sql)
                    existing = made
                }
                let venue = Venue(
                    id: existing?.id ?? VenueID(), name: record.name, location: record.location, sports: record.sports,
                    website: record.website, description: record.description, postcode: record.postcode)
                guard venue != existing else { return .unchanged }
                if existing == nil {
                    try await venues.insert(venue, source: record.source, on: sql)
                } else {
                    try await venues.update(venue, on: sql)
                }
                try await outbox.append(
                    CatalogEvent.venueChanged, aggregateID: venue.id.description, payload: CatalogEvent.VenueChanged(venue: venue), on: sql)
                return existing == nil ? .created : .updated
            }
            switch outcome {
            case .created: summary.created += 1
            case .updated: summary.updated += 1
            case .unchanged: summary.unchanged += 1
            }
        }
        return summary
    }

    /// A venue an administrator made for the same ground before any import: the same name, within
    /// `VenueImportRules.sameGround` of the record's place. The import takes it over rather than
    /// making a second.
    private func venueMadeByHand(for record: ImportedVenue, on sql: any SQLDatabase) async throws -> Venue? {
        try await venues.unsourcedVenues(named: record.name, on: sql).first {
            Geodesy.distanceMeters(from: $0.location.coordinates, to: record.location.coordinates) <= VenueImportRules.sameGround
        }
    }
}

enum VenueImportRules {
    /// How far apart a hand-made venue and a record of the same name may be and still be one ground, in metres.
    static let sameGround = 1000
}
