import Contracts
import Foundation
import ServiceClients
import ServiceKit

/// Rebuilds the read model from the owners' full snapshots (auth's profiles, catalog's public and
/// protected teams, courses and venues, games' upcoming games), for when the index is empty or
/// lost. Events keep arriving meanwhile and keep it current afterwards.
struct Reindex: Sendable {
    typealias Result = ReindexResult

    let database: Database
    let places: any PlaceStore
    let players: any PlayerStore
    let snapshots: SnapshotClient

    func run() async throws -> Result {
        let games = try await snapshots.forEachPage(of: GamesAPI.Internal.gameSnapshot) { page in
            try await write(try page.compactMap(Indexer.document(for:)))
        }
        let teams = try await snapshots.forEachPage(of: CatalogAPI.Internal.teamSnapshot) { page in
            try await write(try page.map(Indexer.document(for:)))
        }
        let courses = try await snapshots.forEachPage(of: CatalogAPI.Internal.courseSnapshot) { page in
            try await write(try page.map(Indexer.document(for:)))
        }
        let venues = try await snapshots.forEachPage(of: CatalogAPI.Internal.venueSnapshot) { page in
            try await write(try page.map(Indexer.document(for:)))
        }
        let profiles = try await snapshots.forEachPage(of: AuthAPI.Internal.profileSnapshot) { page in
            try await database.transaction { sql in
                for profile in page { try await players.upsert(PlayerResult(id: profile.id, name: profile.name), on: sql) }
            }
        }
        return Result(games: games, teams: teams, courses: courses, venues: venues, players: profiles)
    }

    private func write(_ documents: [PlaceDocument]) async throws {
        try await database.transaction { sql in try await places.upsert(documents, on: sql) }
    }
}
