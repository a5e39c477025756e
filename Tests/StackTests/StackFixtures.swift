import Contracts
import Foundation
import ServiceClients
import ServiceKitTesting

/// Places the journeys make through the gateway: adult, mixed volleyball in Tallinn unless said.
extension StackTests {
    static func volleyballTeam(
        _ name: String, privacy: Privacy = .public, at location: Location = Location(lat: 59.43, lng: 24.75), by player: Session,
        through gateway: TestClient
    ) async throws -> Team {
        try await gateway.value(
            CatalogAPI.createTeam,
            body: CreateTeamRequest(
                name: name, sport: .volleyball, privacy: privacy, location: location, ageGroup: .adult, gender: .coed, skill: .any),
            token: player.accessToken)
    }

    static func volleyballLeague(_ name: String, by player: Session, through gateway: TestClient) async throws -> League {
        try await gateway.value(
            CatalogAPI.createLeague,
            body: CreateLeagueRequest(name: name, sport: .volleyball, skill: .any, ageGroup: .adult, gender: .coed, privacy: .public),
            token: player.accessToken)
    }

    /// A public pickup game in Tallinn tomorrow.
    static func pickupGame(description: String?, capacity: Int = 10) -> CreateGameRequest {
        CreateGameRequest(
            kind: .pickup, startsAt: Date().addingTimeInterval(86_400), location: Location(lat: 59.43, lng: 24.75), sport: .volleyball,
            privacy: .public, ageGroup: .adult, gender: .coed, skill: .any, capacity: capacity, description: description)
    }
}
