import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceFeatures

/// What one event asks of the index. Decoding it needs no database, so it happens before the
/// batch's transaction.
enum IndexChange: Sendable {
    case set(PlaceDocument)
    case delete(PlaceKind, id: String)
    case rosterCounts(GameEvent.RosterChanged)
    case subsNeeded(GameEvent.NeedsPlayersChanged)
    case memberCount(CatalogEvent.MembershipChanged)
    case player(PlayerResult)
    /// A deleted account: its name leaves player search.
    case removePlayer(UserID)
    /// What a player holds now, for the `location` gate.
    case entitlements(PurchasesEvent.EntitlementsChanged)
    /// A team or game moderators hid, or showed again: left out of results while hidden.
    case hidden(ModerationEvent.SubjectHidden)
    /// An event search keeps nothing of (another type, or a game without a location).
    case ignored
}

/// Keeps the read model in step with the events of auth, catalog, games, purchases and moderation. Each batch of new
/// changes is folded, in order, into the documents it touches, then written with a few bulk
/// statements: the latest state wins, and partial changes (roster counts, member counts) apply
/// to the state before them in the same batch.
struct Indexer: Sendable {
    let places: any PlaceStore
    let players: any PlayerStore
    let gatekeeper: Gatekeeper

    static func change(for event: EventEnvelope) throws -> IndexChange { try SearchEvents.handlers.step(for: event) ?? .ignored }

    /// What each kind of event asks of the index.

    func apply(_ changes: [IndexChange], on sql: any SQLDatabase) async throws {
        var batch = PendingChanges()
        for change in changes { try await fold(change, into: &batch, on: sql) }
        for kind in PlaceKind.allCases {
            try await places.delete(kind, ids: batch.deleted(kind), on: sql)
        }
        try await places.upsert(batch.upserts, on: sql)
        for player in batch.players { try await players.upsert(player, on: sql) }
        for player in batch.removedPlayers { try await players.delete(player, on: sql) }
    }

    private func fold(_ change: IndexChange, into batch: inout PendingChanges, on sql: any SQLDatabase) async throws {
        switch change {
        case .set(let document):
            batch.set(document)
        case .delete(let kind, let id):
            batch.delete(kind, id: id)
        case .rosterCounts(let change):
            try await update(.game, id: change.gameId.description, as: Game.self, in: &batch, on: sql) { game in
                game.goingCount = change.goingCount
                game.waitlistCount = change.waitlistCount
                game.subsNeeded = change.subsNeeded
                return try Self.document(for: game)
            }
        case .subsNeeded(let change):
            try await update(.game, id: change.gameId.description, as: Game.self, in: &batch, on: sql) { game in
                game.subsNeeded = change.subsNeeded
                return try Self.document(for: game)
            }
        case .memberCount(let change):
            try await update(.team, id: change.teamId.description, as: TeamResult.self, in: &batch, on: sql) { team in
                team.memberCount = change.memberCount
                return nil
            }
        case .player(let player):
            batch.players.append(player)
        case .removePlayer(let id):
            batch.players.removeAll { $0.id == id }
            batch.removedPlayers.append(id)
        case .entitlements(let change):
            try await gatekeeper.apply(change, on: sql)
        case .hidden(let hidden):
            try await HiddenSubjects().apply(hidden, keeping: [.team, .game], on: sql)
        case .ignored:
            break
        }
    }

    /// Changes the stored item in place: `change` edits it and may build the whole document
    /// (when filter columns change too); otherwise only the JSON is replaced.
    private func update<Item: Codable>(
        _ kind: PlaceKind, id: String, as type: Item.Type, in batch: inout PendingChanges, on sql: any SQLDatabase,
        _ change: (inout Item) throws -> PlaceDocument?
    ) async throws {
        let current: PlaceDocument?
        if let pending = batch.pending(kind, id: id) {
            current = pending
        } else {
            current = try await places.document(kind, id: id, on: sql)
        }
        guard var document = current else { return }
        var item = try HuddleJSON.decoder.decode(Item.self, from: document.doc)
        if let rebuilt = try change(&item) {
            document = rebuilt
        } else {
            document.doc = try HuddleJSON.encoder.encode(item)
        }
        batch.set(document)
    }

    /// Without the viewer's own fields (`myStatus`, `distanceMeters`), which a document does not keep.
    static func document(for game: Game) throws -> PlaceDocument? {
        guard game.location != nil else { return nil }
        var stored = game
        stored.myStatus = nil
        stored.distanceMeters = nil
        return document(for: ChangedGame.Columns(stored), json: try HuddleJSON.encoder.encode(stored))
    }

    /// A game's document from its columns and its JSON as stored.
    static func document(for game: ChangedGame.Columns, json: Data) -> PlaceDocument? {
        guard let location = game.location else { return nil }
        return PlaceDocument(
            kind: .game, id: game.id.description, doc: json, coordinates: location.coordinates,
            privacy: game.privacy, sport: game.sport, skill: game.skill, ageGroup: game.ageGroup, gender: game.gender,
            startsAt: game.startsAt, subsNeeded: game.subsNeeded, cancelled: game.status == .cancelled,
            isFull: game.capacity.map { game.goingCount >= $0 } ?? false)
    }

    static func document(for course: Course) throws -> PlaceDocument {
        PlaceDocument(
            kind: .course, id: course.id.description, doc: try HuddleJSON.encoder.encode(course), coordinates: course.location.coordinates,
            privacy: .public, sport: .discGolf)
    }

    static func document(for venue: Venue) throws -> PlaceDocument {
        PlaceDocument(
            kind: .venue, id: venue.id.description, doc: try HuddleJSON.encoder.encode(venue), coordinates: venue.location.coordinates,
            privacy: .public)
    }

    /// Nil only for a team without its place, which catalog never sends.
    static func document(for team: Team) throws -> PlaceDocument? {
        guard let location = team.location else { return nil }
        var result = TeamResult(
            id: team.id, name: team.name, sport: team.sport, privacy: team.privacy, ageGroup: team.ageGroup, gender: team.gender,
            skill: team.skill, memberCount: team.memberCount, location: team.location)
        result.recruiting = team.recruiting
        return PlaceDocument(
            kind: .team, id: team.id.description, doc: try HuddleJSON.encoder.encode(result), coordinates: location.coordinates,
            privacy: team.privacy, sport: team.sport, skill: team.skill, ageGroup: team.ageGroup, gender: team.gender,
            subsNeeded: team.recruiting == true ? 1 : 0)
    }
}

/// What a batch of events leaves behind: the last document of each place, places to delete, players.
struct PendingChanges {
    struct Key: Hashable {
        var kind: PlaceKind
        var id: String
    }

    private var documents: [Key: PlaceDocument?] = [:]
    private var order: [Key] = []
    var players: [PlayerResult] = []
    var removedPlayers: [UserID] = []

    mutating func set(_ document: PlaceDocument) { record(Key(kind: document.kind, id: document.id), document) }
    mutating func delete(_ kind: PlaceKind, id: String) { record(Key(kind: kind, id: id), nil) }

    /// The document as the batch has left it so far; nil when the batch has not touched it or deleted it.
    func pending(_ kind: PlaceKind, id: String) -> PlaceDocument? { documents[Key(kind: kind, id: id)] ?? nil }

    var upserts: [PlaceDocument] { order.compactMap { documents[$0] ?? nil } }
    func deleted(_ kind: PlaceKind) -> [String] { order.filter { $0.kind == kind && documents[$0]! == nil }.map(\.id) }

    private mutating func record(_ key: Key, _ document: PlaceDocument?) {
        // A key is new only when it had no entry, not even a deletion (an entry holding nil).
        if documents.updateValue(document, forKey: key) == nil { order.append(key) }
    }
}
