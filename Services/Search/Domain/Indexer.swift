import Contracts
import Foundation
import ServiceKit
import SQLKit

/// Keeps the read model in step with the events of auth, catalog and games. Each event carries the
/// whole current state of what changed, so applying one is an upsert; the inbox applies each once.
struct Indexer: Sendable {
    let places: any PlaceStore
    let players: any PlayerStore

    func apply(_ event: EventEnvelope, on sql: any SQLDatabase) async throws {
        let decoder = HuddleJSON.decoder
        switch event.type {
        case GameEvent.created, GameEvent.updated, GameEvent.cancelled:
            try await index(try decoder.decode(GameEvent.GameChanged.self, from: event.payload).game, on: sql)
        case GameEvent.rosterChanged:
            let change = try decoder.decode(GameEvent.RosterChanged.self, from: event.payload)
            try await updateGame(change.gameId, on: sql) { game in
                game.goingCount = change.goingCount
                game.waitlistCount = change.waitlistCount
                game.subsNeeded = change.subsNeeded
            }
        case GameEvent.needsPlayersChanged:
            let change = try decoder.decode(GameEvent.NeedsPlayersChanged.self, from: event.payload)
            try await updateGame(change.gameId, on: sql) { $0.subsNeeded = change.subsNeeded }
        case CatalogEvent.teamCreated, CatalogEvent.teamUpdated:
            try await index(try decoder.decode(CatalogEvent.TeamChanged.self, from: event.payload).team, on: sql)
        case CatalogEvent.membershipChanged:
            let change = try decoder.decode(CatalogEvent.MembershipChanged.self, from: event.payload)
            guard var document = try await places.document(.team, id: change.teamId.description, on: sql) else { return }
            var team = try decoder.decode(TeamResult.self, from: document.doc)
            team.memberCount = change.memberCount
            document.doc = try HuddleJSON.encoder.encode(team)
            try await places.upsert(document, on: sql)
        case CatalogEvent.teamDeleted:
            try await places.delete(.team, id: try decoder.decode(CatalogEvent.TeamDeleted.self, from: event.payload).teamId.description, on: sql)
        case CatalogEvent.courseChanged:
            let course = try decoder.decode(CatalogEvent.CourseChanged.self, from: event.payload).course
            try await places.upsert(
                PlaceDocument(
                    kind: .course, id: course.id.description, doc: try HuddleJSON.encoder.encode(course),
                    coordinates: course.location.coordinates, privacy: .public, sport: .discGolf),
                on: sql)
        case CatalogEvent.venueChanged:
            let venue = try decoder.decode(CatalogEvent.VenueChanged.self, from: event.payload).venue
            try await places.upsert(
                PlaceDocument(
                    kind: .venue, id: venue.id.description, doc: try HuddleJSON.encoder.encode(venue), coordinates: venue.location.coordinates,
                    privacy: .public),
                on: sql)
        case AuthEvent.profileChanged:
            let profile = try decoder.decode(AuthEvent.ProfileChanged.self, from: event.payload).profile
            try await players.upsert(PlayerResult(id: profile.id, name: profile.name), on: sql)
        default:
            break
        }
    }

    func index(_ game: Game, on sql: any SQLDatabase) async throws {
        guard let location = game.location else { return }
        var stored = game
        stored.myStatus = nil
        stored.distanceMeters = nil
        try await places.upsert(
            PlaceDocument(
                kind: .game, id: game.id.description, doc: try HuddleJSON.encoder.encode(stored), coordinates: location.coordinates,
                privacy: game.privacy, sport: game.sport, skill: game.skill, ageGroup: game.ageGroup, gender: game.gender,
                startsAt: game.startsAt, subsNeeded: game.subsNeeded, cancelled: game.status == .cancelled),
            on: sql)
    }

    func index(_ team: Team, on sql: any SQLDatabase) async throws {
        let result = TeamResult(
            id: team.id, name: team.name, sport: team.sport, privacy: team.privacy, ageGroup: team.ageGroup, gender: team.gender,
            skill: team.skill, memberCount: team.memberCount, location: team.location)
        try await places.upsert(
            PlaceDocument(
                kind: .team, id: team.id.description, doc: try HuddleJSON.encoder.encode(result), coordinates: team.location.coordinates,
                privacy: team.privacy, sport: team.sport, skill: team.skill, ageGroup: team.ageGroup, gender: team.gender),
            on: sql)
    }

    private func updateGame(_ id: GameID, on sql: any SQLDatabase, _ change: (inout Game) -> Void) async throws {
        guard let document = try await places.document(.game, id: id.description, on: sql) else { return }
        var game = try HuddleJSON.decoder.decode(Game.self, from: document.doc)
        change(&game)
        try await index(game, on: sql)
    }
}
