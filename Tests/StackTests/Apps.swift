import Contracts
import Foundation
import HuddleKit
import ServiceKitTesting

/// Players' apps in the journeys: HuddleKit through the gateway, as an iOS app talks to Huddle.
extension StackTests {
    static func app(_ gateway: TestClient) -> HuddleClient {
        HuddleClient(
            baseURL: URL(string: gateway.baseURL)!, liveTransport: WebSocketLiveTransport(),
            retry: RetryPolicy(retries: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(200)))
    }

    /// A new player, signed in.
    static func player(_ gateway: TestClient, _ name: String) async throws -> HuddleClient {
        let app = app(gateway)
        try await app.register(email: "app-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "app password 1", name: name)
        return app
    }

    /// The administrator's app (registered on a stack that does not know it yet).
    /// Its session is `administrator`'s (one sign-in, which that retries as it must), held as an app keeps one.
    static func administratorApp(_ gateway: TestClient) async throws -> HuddleClient {
        let session = try await administrator(gateway)
        let stored = StoredSession(session: session, accessTokenExpiresAt: Date().addingTimeInterval(TimeInterval(session.expiresIn)))
        return HuddleClient(
            baseURL: URL(string: gateway.baseURL)!, tokens: InMemoryTokenStore(stored),
            retry: RetryPolicy(retries: 3, baseDelay: .milliseconds(20), maxDelay: .milliseconds(200)))
    }
}

extension StackTests {
    /// A public soccer team in Tallinn named `name`.
    static func teamRequest(name: String) -> CreateTeamRequest {
        CreateTeamRequest(
            name: name, sport: .soccer, privacy: .public, location: Location(lat: 59.437, lng: 24.745), ageGroup: .adult, gender: .coed,
            skill: .any)
    }
}

extension HuddleClient {
    /// The signed-in player's id.
    var userID: UserID {
        get async throws {
            guard let user = await currentUser else { throw HuddleError(kind: .notSignedIn) }
            return user.id
        }
    }
}
