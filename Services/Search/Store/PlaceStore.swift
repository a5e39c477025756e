import Contracts
import Foundation
import SQLKit
import ServiceFeatures
import ServiceStore

enum PlaceKind: String, Sendable, CaseIterable {
    case game, team, course, venue

    /// The kind as moderation names it, for those players make (and may report).
    var subjectType: SubjectType? {
        switch self {
        case .game: .game
        case .team: .team
        case .course, .venue: nil
        }
    }
}

/// A searchable item as stored: its public JSON and what filters and the spatial index need.
struct PlaceDocument: Sendable, Equatable {
    var kind: PlaceKind
    var id: String
    var doc: Data
    var coordinates: Coordinates
    var privacy: Privacy
    var sport: Sport?
    var skill: Skill?
    var ageGroup: AgeGroup?
    var gender: Gender?
    var startsAt: Date?
    /// A game's substitutes wanted; for a team, 1 while it is recruiting.
    var subsNeeded: Int = 0
    var cancelled = false
    /// A game with no free slot (`goingCount` at its `capacity`).
    var isFull = false
}

/// What narrows a search besides the circle. Attribute filters match the value itself or `any`
/// (and, for a player's gender, `coed` games too).
struct PlaceFilter: Sendable {
    var sport: Sport?
    var skill: Skill?
    var ageGroup: AgeGroup?
    var gender: Gender?
    var from: Date?
    var to: Date?
    var needsPlayers: Bool?
    /// true: only games with a free slot; false: only full ones.
    var openSlots: Bool?
    /// Only games that have not started.
    var startingAfter: Date?
}

/// A candidate from the spatial index, before the exact distance check.
struct PlaceCandidate: Sendable {
    var id: String
    var doc: Data
    var coordinates: Coordinates
    var privacy: Privacy
    var startsAt: Date?
}

protocol PlaceStore: Sendable {
    /// Inserts or replaces the documents, a few statements for many documents. Keys must not repeat.
    func upsert(_ documents: [PlaceDocument], on sql: any SQLDatabase) async throws
    func document(_ kind: PlaceKind, id: String, on sql: any SQLDatabase) async throws -> PlaceDocument?
    func delete(_ kind: PlaceKind, ids: [String], on sql: any SQLDatabase) async throws
    /// Public and protected items of `kind` whose position may lie in `boxes` (a superset of the circle),
    /// but for those moderators hid: the managers of those find them in their own lists.
    func candidates(_ kind: PlaceKind, in boxes: [GeoBox], filter: PlaceFilter, on sql: any SQLDatabase) async throws -> [PlaceCandidate]
}

struct SQLPlaceStore: PlaceStore {
    let kind: Database.Kind
    static let documentColumns = [
        "kind", "id", "doc", "lat", "lng", "privacy", "sport", "skill", "age_group", "gender", "starts_at", "subs_needed", "cancelled",
        "is_full",
    ]

    func upsert(_ documents: [PlaceDocument], on sql: any SQLDatabase) async throws {
        for chunk in documents.statementSlices() {
            let rows = chunk.map { document -> [any SQLExpression] in
                let position = IndexedPosition.of(document.coordinates)
                return [
                    SQLBind(document.kind.rawValue), SQLBind(document.id), SQLBind(String(decoding: document.doc, as: UTF8.self)),
                    SQLBind(position.lat), SQLBind(position.lng), SQLBind(document.privacy.rawValue),
                    SQLBind(document.sport?.rawValue), SQLBind(document.skill?.rawValue), SQLBind(document.ageGroup?.rawValue),
                    SQLBind(document.gender?.rawValue), SQLBind(document.startsAt), SQLBind(document.subsNeeded),
                    SQLBind(document.cancelled), SQLBind(document.isFull),
                ]
            }
            let stored = try await sql.insert(into: "places").columns(Self.documentColumns).rows(rows)
                .onConflict(with: ["id", "kind"]) { update in
                    Self.documentColumns.dropFirst(2).reduce(update) { $0.set(excludedValueOf: $1) }
                }
                .returning("rid", "lat", "lng", "sport").all()
            guard kind == .sqlite else { continue }
            // An R*Tree takes no upsert: moved and new points are deleted, then inserted.
            let rids = try stored.map { try $0.decode(column: "rid", as: Int64.self) }
            try await sql.delete(from: "places_at").where("rid", .in, SQLBind.group(rids)).run()
            let points = try zip(rids, stored).map { rid, row -> [any SQLExpression] in
                let lat = try row.decode(column: "lat", as: Double.self), lng = try row.decode(column: "lng", as: Double.self)
                let sport = SportCode.of(try row.decode(column: "sport", as: String?.self).flatMap(Sport.init))
                return [SQLBind(rid), SQLBind(lat), SQLBind(lat), SQLBind(lng), SQLBind(lng), SQLBind(sport), SQLBind(sport)]
            }
            try await sql.insert(into: "places_at").columns("rid", "min_lat", "max_lat", "min_lng", "max_lng", "min_sport", "max_sport")
                .rows(points).run()
        }
    }

    func document(_ kind: PlaceKind, id: String, on sql: any SQLDatabase) async throws -> PlaceDocument? {
        guard
            let row = try await sql.select().columns("*").from("places")
                .where("kind", .equal, SQLBind(kind.rawValue)).where("id", .equal, SQLBind(id)).first()
        else { return nil }
        return PlaceDocument(
            kind: kind, id: id, doc: Data(try row.decode(column: "doc", as: String.self).utf8),
            coordinates: Coordinates(
                lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self)),
            privacy: try row.enumValue("privacy"), sport: try row.decode(column: "sport", as: String?.self).flatMap(Sport.init),
            skill: try row.decode(column: "skill", as: String?.self).flatMap(Skill.init),
            ageGroup: try row.decode(column: "age_group", as: String?.self).flatMap(AgeGroup.init),
            gender: try row.decode(column: "gender", as: String?.self).flatMap(Gender.init),
            startsAt: try row.decode(column: "starts_at", as: Date?.self), subsNeeded: try row.decode(column: "subs_needed", as: Int.self),
            cancelled: try row.decode(column: "cancelled", as: Bool.self), isFull: try row.decode(column: "is_full", as: Bool.self))
    }

    func delete(_ kind: PlaceKind, ids: [String], on sql: any SQLDatabase) async throws {
        guard !ids.isEmpty else { return }
        if self.kind == .sqlite {
            try await sql.delete(from: "places_at")
                .where(
                    "rid", .in,
                    SQLSubquery.select {
                        $0.column("rid").from("places").where("kind", .equal, SQLBind(kind.rawValue)).where("id", .in, SQLBind.group(ids))
                    }
                ).run()
        }
        try await sql.delete(from: "places").where("kind", .equal, SQLBind(kind.rawValue)).where("id", .in, SQLBind.group(ids)).run()
    }

    func candidates(_ kind: PlaceKind, in boxes: [GeoBox], filter: PlaceFilter, on sql: any SQLDatabase) async throws -> [PlaceCandidate] {
        try await candidatesQuery(kind, in: boxes, filter: filter, on: sql).all().map { row in
            PlaceCandidate(
                id: try row.decode(column: "id", as: String.self), doc: Data(try row.decode(column: "doc", as: String.self).utf8),
                coordinates: Coordinates(
                    lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self)),
                privacy: try row.enumValue("privacy"), startsAt: try row.decode(column: "starts_at", as: Date?.self))
        }
    }

    /// The candidates' query, which the spatial index answers on either store (tests read its plan).
    func candidatesQuery(_ kind: PlaceKind, in boxes: [GeoBox], filter: PlaceFilter, on sql: any SQLDatabase) -> SQLSelectBuilder {
        var query = sql.select().columns(["id", "doc", "lat", "lng", "privacy", "starts_at"].map { SQLColumn($0, table: "places") })
            // On SQLite no other index may drive: only rowids from the R*Tree are looked up.
            .from(self.kind == .sqlite ? SQLRaw("places NOT INDEXED") : SQLIdentifier("places"))
            .where(SQLColumn("kind", table: "places"), .equal, SQLBind(kind.rawValue))
        // Private places stay out, but for a game asking for substitutes (`Game.shownToSubstitute`).
        query = query.where(group: { shown in
            let open = shown.where(SQLColumn("privacy", table: "places"), .notEqual, SQLBind(Privacy.private.rawValue))
            return kind == .game ? open.orWhere(SQLColumn("subs_needed", table: "places"), .greaterThan, SQLBind(0)) : open
        })
        switch self.kind {
        case .sqlite:
            // The R*Tree hands over the rowids of the sport in the boxes, and only those rows are read.
            let sports = filter.sport.map { (SportCode.of($0), SportCode.of($0)) } ?? SportCode.all
            let inBoxes = SQLSubquery.select { geo in
                geo.column("rid").from("places_at").where(group: { any in
                    boxes.reduce(any) { any, box in
                        any.orWhere(group: { inBox in
                            inBox.where("max_lat", .greaterThanOrEqual, SQLBind(box.minLat)).where(
                                "min_lat", .lessThanOrEqual, SQLBind(box.maxLat)
                            )
                            .where("max_lng", .greaterThanOrEqual, SQLBind(box.minLng)).where(
                                "min_lng", .lessThanOrEqual, SQLBind(box.maxLng)
                            )
                            .where("max_sport", .greaterThanOrEqual, SQLBind(sports.0)).where(
                                "min_sport", .lessThanOrEqual, SQLBind(sports.1))
                        })
                    }
                })
            }
            query = query.where(SQLColumn("rid", table: "places"), .in, inBoxes)
        case .postgres:
            // The same expression as the GiST index, so the index answers it (with the sport, which
            // `apply` adds); one box or two, a bitmap scan each.
            let point = SQLFunction("point", args: SQLColumn("lng", table: "places"), SQLColumn("lat", table: "places"))
            query = query.where(group: { any in
                boxes.reduce(any) { any, box in
                    let corners = SQLFunction(
                        "box", args: SQLFunction("point", args: SQLBind(box.minLng), SQLBind(box.minLat)),
                        SQLFunction("point", args: SQLBind(box.maxLng), SQLBind(box.maxLat)))
                    return any.orWhere(SQLBinaryExpression(left: point, op: SQLRaw("<@"), right: corners))
                }
            })
        }
        if let type = kind.subjectType { query = query.where(HiddenSubjects.notHidden(type, id: SQLColumn("id", table: "places"))) }
        return apply(filter, to: query)
    }

    private func apply(_ filter: PlaceFilter, to query: SQLSelectBuilder) -> SQLSelectBuilder {
        var query = query
        func column(_ name: String) -> SQLColumn { SQLColumn(name, table: "places") }
        if let sport = filter.sport { query = query.where(column("sport"), .equal, SQLBind(sport.rawValue)) }
        if let skill = filter.skill, skill != .any {
            query = query.where(column("skill"), .in, SQLBind.group([skill.rawValue, Skill.any.rawValue]))
        }
        if let ageGroup = filter.ageGroup, ageGroup != .any {
            query = query.where(column("age_group"), .in, SQLBind.group([ageGroup.rawValue, AgeGroup.any.rawValue]))
        }
        if let gender = filter.gender, gender != .any {
            let accepted = gender == .coed ? [Gender.coed, .any] : [gender, .coed, .any]
            query = query.where(column("gender"), .in, SQLBind.group(accepted.map(\.rawValue)))
        }
        if let startingAfter = filter.startingAfter {
            query = query.where(column("starts_at"), .greaterThan, SQLBind(startingAfter)).where(
                column("cancelled"), .equal, SQLBind(false))
        }
        if let from = filter.from { query = query.where(column("starts_at"), .greaterThanOrEqual, SQLBind(from)) }
        if let to = filter.to { query = query.where(column("starts_at"), .lessThanOrEqual, SQLBind(to)) }
        if let needsPlayers = filter.needsPlayers {
            query = query.where(column("subs_needed"), needsPlayers ? .greaterThan : .equal, SQLBind(0))
        }
        if let openSlots = filter.openSlots { query = query.where(column("is_full"), .equal, SQLBind(!openSlots)) }
        return query
    }
}
