import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceClients
import ServiceHTTP
import ServiceStore

/// Disc golf rounds: one shared scorecard per group, changed one version at a time, each change
/// committed with its log entry and announced to every connected device.
struct Rounds: Sendable {
    static let maxPlayers = 20

    let database: Database
    let rounds: any RoundStore
    let catalog: CatalogClient
    let auth: AuthClient
    /// The clock: tests set it.
    let now: @Sendable () -> Date
    var outbox: Outbox { Outbox(now: now) }

    /// Holes and pars are copied from catalog now, so later edits of the course leave this round
    /// alone. The starter plays; no hole has a score until a player records one.
    func start(_ request: StartRoundRequest, by user: UserID, requestID: String) async throws -> Scorecard {
        let course = try RoundCourse.asked(in: request)
        let entries = try await players(request.players, starter: user, requestID: requestID)
        let (courseID, name, holes) = try await played(course, requestID: requestID)
        var started = Scorecard(
            id: RoundID(), courseId: courseID, courseName: name, status: .ongoing, version: 0, currentHole: 1, holes: holes,
            players: entries.map { Scoring.line(playerId: RoundPlayerID(), userId: $0.userId, name: $0.name, strokes: [:], holes: holes) },
            startedBy: user, startedAt: now())
        if case .unlisted = course { started.courseUnlisted = true }
        let card = started
        try await database.transaction { sql in
            try await rounds.insert(card, on: sql)
            let added = card.players.compactMap(\.userId).filter { $0 != user }
            try await outbox.append(
                RoundEvent.started, aggregateID: card.id.description,
                payload: RoundEvent.RoundChanged(scorecard: card, addedUserIds: added), on: sql)
        }
        return card
    }

    /// The course's id, name and holes as the round keeps them: a listed course's from catalog, an
    /// unlisted one's as the player gave them, under an id of the round's own.
    private func played(_ course: RoundCourse, requestID: String) async throws -> (CourseID, String, [ScorecardHole]) {
        switch course {
        case .listed(let id):
            guard let course = try await catalog.course(id, requestID: requestID) else {
                throw CommonError.invalid("courseId", "no course with id \(id)")
            }
            return (course.id, course.name, course.holes.map { ScorecardHole(number: $0.number, par: $0.par) })
        case .unlisted(let course):
            return (CourseID(), course.name.trimmingBlanks, course.holes.sorted { $0.number < $1.number })
        }
    }

    /// A player joins the round under way, asked by any of its players: their holes start unplayed,
    /// and the devices on the live card get the whole card with them in it.
    func addPlayer(_ request: RoundPlayerRequest, to id: RoundID, by user: UserID, requestID: String) async throws -> Scorecard {
        // The body is one player: its problems name its own fields.
        guard let entry = try await players([request], starter: user, requestID: requestID, field: { _ in "" }).dropFirst().first else {
            throw CommonError.invalid("userId", "already plays this round")
        }
        return try await database.transaction { sql in
            let card = try await playedCard(id, by: user, locked: true, on: sql)
            guard card.status == .ongoing else { throw GamesError.roundFinished }
            guard card.players.count < Self.maxPlayers else {
                throw CommonError.invalid("players", "a round has at most \(Self.maxPlayers) players, you included")
            }
            if let added = entry.userId, card.players.contains(where: { $0.userId == added }) {
                throw CommonError.invalid("userId", "already plays this round")
            }
            let version = card.version + 1
            let player = RoundPlayerID()
            try await rounds.addPlayer(player, userId: entry.userId, name: entry.name, to: id, version: version, on: sql)
            try await database.notify(channel: ChangeChannel.rounds, payload: ChangeChannel.payload(id, version: version), on: sql)
            let changed = try await storedCard(id, on: sql)
            if let added = entry.userId {
                try await outbox.append(
                    RoundEvent.playerAdded, aggregateID: id.description,
                    payload: RoundEvent.RoundChanged(scorecard: changed, addedUserIds: [added]), on: sql)
            }
            return changed
        }
    }

    /// The card, for its players only: to anyone else the round does not exist.
    func card(_ id: RoundID, viewer: UserID) async throws -> Scorecard {
        try await database.read { sql in try await playedCard(id, by: viewer, on: sql) }
    }

    func mine(_ user: UserID, status: RoundStatus?, page: PageRequest) async throws -> Page<Scorecard> {
        let after = try TimeCursor(page)
        let cards = try await database.read { sql in
            try await rounds.rounds(of: user, status: status, after: after, limit: page.limit + 1, on: sql)
        }
        return page.page(cards) { TimeCursor(time: $0.startedAt, id: $0.id).encoded }
    }

    /// Writes one cell (last write wins per cell). With `expectedVersion`, a card that has moved on
    /// is a 409 with the current card, so the client can show what it missed.
    func score(_ update: ScoreUpdate, in id: RoundID, by user: UserID) async throws -> Scorecard {
        try await write(update.strokes, of: update.playerId, hole: update.hole, expectedVersion: update.expectedVersion, in: id, by: user)
    }

    /// Clears one cell: the hole is not played by that player (`DELETE .../scores/{playerId}/{hole}`).
    func clear(_ player: RoundPlayerID, hole: Int, in id: RoundID, by user: UserID) async throws -> Scorecard {
        try await write(nil, of: player, hole: hole, expectedVersion: nil, in: id, by: user)
    }

    /// The rule that makes phones converge (README, "Offline"): writes to one cell — a score or a
    /// clear — are applied one at a time under the round's lock, in the order they arrive, each
    /// making the next version; the last applied is the cell's value, and every device that catches
    /// up from its version ends on the same card.
    private func write(
        _ strokes: Int?, of playerID: RoundPlayerID, hole: Int, expectedVersion: Int?, in id: RoundID, by user: UserID
    ) async throws -> Scorecard {
        let card = try await database.transaction { sql -> Scorecard in
            let card = try await playedCard(id, by: user, locked: true, on: sql)
            guard card.status == .ongoing else { throw GamesError.roundFinished }
            var errors: [Problem.FieldError] = []
            let player = card.players.first { $0.playerId == playerID }
            if player == nil { errors.append(.invalid("playerId", "is not a player of this round")) }
            if !card.holes.contains(where: { $0.number == hole }) {
                errors.append(.invalid("hole", "this course has holes 1 to \(card.holes.count)"))
            }
            try FieldRules.require(errors)
            if let expected = expectedVersion, expected != card.version { throw GamesError.versionConflict(card) }
            // The same value again (a retry) changes nothing and makes no version.
            if player?.scores.first(where: { $0.hole == hole })?.strokes == strokes { return card }
            let version = card.version + 1
            try await rounds.setScore(strokes, of: playerID, hole: hole, in: id, version: version, on: sql)
            try await database.notify(
                channel: ChangeChannel.rounds, payload: ChangeChannel.payload(id, version: version), on: sql)
            return try await storedCard(id, on: sql)
        }
        return card
    }

    /// Any player finishes the round; from then on it is read-only. Finishing again changes nothing.
    func finish(_ id: RoundID, by user: UserID) async throws -> Scorecard {
        let card = try await database.transaction { sql -> Scorecard in
            let card = try await playedCard(id, by: user, locked: true, on: sql)
            guard card.status == .ongoing else { return card }
            let version = card.version + 1
            try await rounds.finish(id, version: version, at: now(), on: sql)
            try await database.notify(
                channel: ChangeChannel.rounds, payload: ChangeChannel.payload(id, version: version), on: sql)
            let finished = try await storedCard(id, on: sql)
            try await outbox.append(
                RoundEvent.finished, aggregateID: id.description, payload: RoundEvent.RoundChanged(scorecard: finished), on: sql)
            return finished
        }
        return card
    }

    /// The changes after `version`, for a device catching up.
    func changes(of id: RoundID, after version: Int, viewer: UserID) async throws -> [LiveMessage] {
        try await database.read { sql in
            _ = try await playedCard(id, by: viewer, on: sql)
            return try await rounds.changes(of: id, after: version, on: sql)
        }
    }

    func stats(of user: UserID) async throws -> PlayerStats {
        let cards = try await database.read { sql in
            try await rounds.rounds(of: user, status: .completed, after: nil, limit: 100_000, on: sql)
        }
        return Scoring.stats(of: user, cards: cards)
    }

    // MARK: Helpers

    /// 404 unless `user` plays the round, read before a score's body is.
    func requirePlayer(of id: RoundID, user: UserID) async throws {
        _ = try await database.read { sql in try await playedCard(id, by: user, on: sql) }
    }

    func playedCard(_ id: RoundID, by user: UserID, locked: Bool = false, on sql: any SQLDatabase) async throws -> Scorecard {
        let card = locked ? try await rounds.lock(id, on: sql) : try await rounds.card(id, on: sql)
        guard let card, card.players.contains(where: { $0.userId == user }) else {
            throw CommonError.missing(id)
        }
        return card
    }

    /// The card as this transaction left it: the round was read, locked, a moment before.
    private func storedCard(_ id: RoundID, on sql: any SQLDatabase) async throws -> Scorecard {
        let card = try await rounds.card(id, on: sql).orMissing(id)
        return card
    }

    /// The starter first, then the listed players and guests, each registered player once. A problem
    /// names the entry's field under `field` of its index (`players[1].guestName`).
    private func players(
        _ requested: [RoundPlayerRequest], starter: UserID, requestID: String, field: (Int) -> String = { "players[\($0)]" }
    ) async throws -> [(userId: UserID?, name: String)] {
        guard requested.count < Self.maxPlayers else {
            throw CommonError.invalid("players", "a round has at most \(Self.maxPlayers) players, you included")
        }
        var errors: [Problem.FieldError] = []
        for (index, entry) in requested.enumerated() {
            switch (entry.userId, entry.guestName) {
            case (nil, nil), (.some, .some):
                errors.append(.invalid(field(index).isEmpty ? "userId" : field(index), "give either userId or guestName"))
            case (nil, let name?):
                if let message = RoundPlayerRequest.guestName.problem(name) {
                    errors.append(.init(field: FieldRules.path(field(index), "guestName"), message: message))
                }
            default:
                break
            }
        }
        try FieldRules.require(errors)
        let userIDs = [starter] + requested.compactMap(\.userId).filter { $0 != starter }
        let profiles = try await auth.profiles(userIDs, requestID: requestID)
        let unknown = requested.enumerated().compactMap { index, player in
            player.userId.flatMap { profiles[$0] == nil ? (index, $0) : nil }
        }
        try FieldRules.require(unknown.map { .invalid(FieldRules.path(field($0.0), "userId"), "no player with id \($0.1)") })
        var seen: Set<UserID> = []
        var entries: [(userId: UserID?, name: String)] = []
        for id in userIDs where seen.insert(id).inserted { entries.append((id, profiles[id]?.name ?? ShownWords.player.english)) }
        for entry in requested {
            if let name = entry.guestName?.trimmingBlanks { entries.append((nil, name)) }
        }
        return entries
    }
}

/// The course a round is asked to be played on: listed (`courseId`) or described (`course`), one or the other.
enum RoundCourse {
    case listed(CourseID)
    case unlisted(UnlistedCourse)

    static func asked(in request: StartRoundRequest) throws -> RoundCourse {
        switch (request.courseId, request.course) {
        case (let id?, nil): return .listed(id)
        case (nil, let course?):
            try FieldRules.require(Self.problems(of: course))
            return .unlisted(course)
        default: throw CommonError.invalid("courseId", "give either courseId or course")
        }
    }

    /// A name, and holes numbered 1…n without gaps or repeats, each with a par in range.
    static func problems(of course: UnlistedCourse) -> [Problem.FieldError] {
        var errors = TextRule.catalogName.problem(course.name).map { [Problem.FieldError(field: "course.name", message: $0)] } ?? []
        guard (1...Hole.maxNumber).contains(course.holes.count) else {
            return errors + [.invalid("course.holes", "must list 1 to \(Hole.maxNumber) holes")]
        }
        for (index, hole) in course.holes.enumerated() where !Hole.parRange.contains(hole.par) {
            errors.append(.invalid("course.holes[\(index)].par", "must be from \(Hole.parRange.lowerBound) to \(Hole.parRange.upperBound)"))
        }
        if Set(course.holes.map(\.number)) != Set(1...course.holes.count) {
            errors.append(.invalid("course.holes", "must be numbered 1 to \(course.holes.count) without gaps"))
        }
        return errors
    }
}
