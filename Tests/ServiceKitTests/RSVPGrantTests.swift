import Contracts
import Foundation
import ServiceHTTP
import Testing

/// The answer token a push carries: notify's, for one player and one game, until kickoff, and never
/// an internal call's token either way.
@Suite("Answer tokens")
struct RSVPGrantTests {
    let keys = InternalKeys.generate()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func credential(_ module: ServiceModule) throws -> ModuleCredential {
        let now = now
        let credential = keys.credential(of: module) { now }
        return try #require(credential)
    }

    @Test("notify's token names its player for its game until kickoff; another game, a later time or another module's key, none")
    func grant() async throws {
        let notify = try credential(.notify)
        let player = UserID(), game = GameID(), kickoff = now.addingTimeInterval(3600)
        let token = try await RSVPGrant.issue(to: player, for: game, until: kickoff, by: notify)
        let notifyKey = try #require(keys.publicKeys[.notify])
        #expect(await RSVPGrant.player(in: token, for: game, notifyKey: notifyKey, now: now) == player)
        #expect(await RSVPGrant.player(in: token, for: GameID(), notifyKey: notifyKey, now: now) == nil)
        #expect(await RSVPGrant.player(in: token, for: game, notifyKey: notifyKey, now: kickoff) == nil)
        let chat = try credential(.chat)
        let byChat = try await RSVPGrant.issue(to: player, for: game, until: kickoff, by: chat)
        #expect(await RSVPGrant.player(in: byChat, for: game, notifyKey: notifyKey, now: now) == nil)
    }

    @Test("an answer token is no internal call to games, and notify's internal token answers nothing")
    func notInterchangeable() async throws {
        let notify = try credential(.notify)
        let game = GameID()
        let grant = try await RSVPGrant.issue(to: UserID(), for: game, until: now.addingTimeInterval(3600), by: notify)
        let now = now
        let games = InternalCallVerifier(module: .games, publicKeys: keys.publicKeys, now: { now })
        await #expect(throws: InternalCallVerifier.Failure.notForThisModule) { try await games.caller(of: grant) }
        let call = try await notify.token(for: .games)
        let notifyKey = try #require(keys.publicKeys[.notify])
        #expect(await RSVPGrant.player(in: call, for: game, notifyKey: notifyKey, now: now) == nil)
    }
}
