public import Contracts
public import Crypto
public import Foundation
import JWTKit

/// The answer a push lets a player give from the lock screen, without their session: notify signs,
/// with its own module key, a grant naming the player and the game, good until kickoff; games checks
/// it against notify's public key (`internal.keys`). Its audience is `games.rsvp`, never a module's
/// own name, so it can never pass as an internal call (`InternalCallVerifier` wants `aud` = `games`),
/// nor an internal call's token as a grant.
public enum RSVPGrant {
    static let audience = "games.rsvp"

    /// Notify's grant for `player` to answer `game`, until `kickoff`.
    public static func issue(to player: UserID, for game: GameID, until kickoff: Date, by notify: ModuleCredential) async throws -> String {
        try await notify.sign(Claims(player: player, game: game, until: kickoff))
    }

    /// The player `token` lets answer `game` now; nil when it is not notify's, not for that game, or past kickoff.
    public static func player(
        in token: String, for game: GameID, notifyKey: Curve25519.Signing.PublicKey, now: Date
    ) async -> UserID? {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PublicKey(backing: notifyKey), kid: JWKIdentifier(string: ServiceModule.notify.rawValue))
        guard let grant = try? await keys.verify(token, as: Claims.self), grant.iss.value == ServiceModule.notify.rawValue,
            grant.aud.value == [audience], grant.game == game.description, grant.exp.value > now
        else { return nil }
        return UserID(grant.sub.value)
    }
}

extension RSVPGrant {
    struct Claims: JWTPayload, Equatable {
        var iss: IssuerClaim
        var aud: AudienceClaim
        var sub: SubjectClaim
        var game: String
        var exp: ExpirationClaim

        init(player: UserID, game: GameID, until kickoff: Date) {
            iss = .init(value: ServiceModule.notify.rawValue)
            aud = .init(value: [RSVPGrant.audience])
            sub = .init(value: player.description)
            self.game = game.description
            exp = .init(value: Date(timeIntervalSince1970: kickoff.timeIntervalSince1970.rounded(.down)))
        }

        /// Checked by `RSVPGrant.player(in:for:notifyKey:now:)`, against the game asked and the caller's clock.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }
}
