import Contracts
import Foundation
import ServerContracts
import ServiceClients
import ServiceHTTP
import ServiceStore

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
        var done = Result(games: 0, teams: 0, courses: 0, venues: 0, players: 0)
        done.games = try await step(GamesAPI.Internal.gameSnapshot, done) { page in
            try await write(try page.compactMap(Indexer.document(for:)))
        }
        done.teams = try await step(CatalogAPI.Internal.teamSnapshot, done) { page in
            try await write(try page.compactMap(Indexer.document(for:)))
        }
        done.courses = try await step(CatalogAPI.Internal.courseSnapshot, done) { page in
            try await write(try page.map(Indexer.document(for:)))
        }
        done.venues = try await step(CatalogAPI.Internal.venueSnapshot, done) { page in
            try await write(try page.map(Indexer.document(for:)))
        }
        done.players = try await step(AuthAPI.Internal.profileSnapshot, done) { page in
            try await database.transaction { sql in
                for profile in page { try await players.upsert(PlayerResult(id: profile.id, name: profile.name), on: sql) }
            }
        }
        return done
    }

    /// Reads one owner's snapshot through `body`; an owner that does not answer stops the rebuild
    /// with what was done so far.
    private func step<Item: Codable & Sendable>(
        _ snapshot: Endpoint<InternalCaller, NoBody, Page<Item>>, _ done: Result, _ body: ([Item]) async throws -> Void
    ) async throws -> Int {
        do {
            return try await snapshots.forEachPage(of: snapshot, body)
        } catch let error as CommonError {
            guard case .dependencyUnavailable = error else { throw error }
            throw SearchError.reindexInterrupted(owner: snapshot.operation.owner, indexedSoFar: done)
        }
    }

    private func write(_ documents: [PlaceDocument]) async throws {
        try await database.transaction { sql in try await places.upsert(documents, on: sql) }
    }
}
