import Contracts
import Foundation
import ServiceKitTesting

/// Courses and rounds on top of `GamesHarness`.
extension GamesHarness {
    static let adminEmail = "admin@example.com"

    /// A course of `pars.count` holes, created by an administrator.
    func course(pars: [Int] = Array(repeating: 3, count: 9), name: String = "Rakke DiscGolfPark") async throws -> Course {
        let holes = pars.enumerated().map { index, par in
            let step = Double(index) * 0.001
            return Hole(
                number: index + 1, par: par, tee: Coordinates(lat: 58.98 + step, lng: 26.25),
                basket: Coordinates(lat: 58.98 + step + 0.0005, lng: 26.25))
        }
        let request = CreateCourseRequest(name: name, location: Location(lat: 58.98068, lng: 26.25523), holes: holes)
        return try await expect(201, catalog.call(CatalogAPI.createCourse, body: request, token: try await administrator().accessToken))
            .decode(Course.self)
    }

    /// The administrator's session (registered on first use).
    func administrator() async throws -> Session {
        let login = try await auth.call(AuthAPI.login, body: LoginRequest(email: Self.adminEmail, password: "correct horse battery"))
        if login.status == 200 { return try login.decode(Session.self) }
        return try await auth.register(name: "Ada Admin", email: Self.adminEmail)
    }

    func startRound(on course: Course, by starter: Session, with players: [RoundPlayerRequest] = []) async throws -> Scorecard {
        try await expect(
            201, games.call(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id, players: players), token: starter.accessToken)
        )
        .decode(Scorecard.self)
    }

    func score(_ card: Scorecard, player: Int, hole: Int, strokes: Int, as session: Session, expectedVersion: Int? = nil)
        async throws -> TestClient.Response
    {
        let update = ScoreUpdate(playerId: card.players[player].playerId, hole: hole, strokes: strokes, expectedVersion: expectedVersion)
        return try await games.call(GamesAPI.score, card.id, body: update, token: session.accessToken)
    }

    func card(_ id: RoundID, as session: Session) async throws -> Scorecard {
        try await expect(200, games.call(GamesAPI.round, id, token: session.accessToken)).decode(Scorecard.self)
    }

    func socket(_ card: Scorecard, as session: Session, afterVersion: Int? = nil) async throws -> LiveSocket {
        try await LiveSocket.connect(baseURL: stack.url(.games), round: card.id, token: session.accessToken, afterVersion: afterVersion)
    }
}
