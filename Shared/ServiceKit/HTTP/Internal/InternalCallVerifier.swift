public import Contracts
public import Crypto
public import Foundation
import JWTKit

/// Tells which module made an internal call to `module`: the token in `X-Internal-Token` must be
/// signed with the key `internal.keys` gives for the module it names as caller, be meant for
/// `module`, and not have expired. A caller sends the same token for minutes, so a token whose
/// signature checked out is remembered until it expires.
public actor InternalCallVerifier {
    public let module: ServiceModule
    private let publicKeys: [ServiceModule: Curve25519.Signing.PublicKey]
    private var keysByCaller: [ServiceModule: JWTKeyCollection] = [:]
    private var verified: [String: (caller: ServiceModule, expires: Date)] = [:]
    private let verifiedCapacity = 1_000
    private let now: @Sendable () -> Date
    /// How far apart two hosts' clocks may be.
    private let leeway: TimeInterval = 30

    public enum Failure: Error, Equatable {
        case malformed, unknownCaller, invalid, expired, notForThisModule
    }

    public init(
        module: ServiceModule, publicKeys: [ServiceModule: Curve25519.Signing.PublicKey], now: @escaping @Sendable () -> Date
    ) {
        self.module = module
        self.publicKeys = publicKeys
        self.now = now
    }

    /// The module that signed `token` for this one.
    public func caller(of token: String) async throws(Failure) -> ServiceModule {
        if let hit = verified[token] {
            guard hit.expires.addingTimeInterval(leeway) > now() else {
                verified[token] = nil
                throw .expired
            }
            return hit.caller
        }
        let named: InternalCallClaims
        do {
            named = try DefaultJWTParser().parse([UInt8](token.utf8), as: InternalCallClaims.self).payload
        } catch {
            throw .malformed
        }
        guard let caller = ServiceModule(rawValue: named.iss.value), let keys = await keys(of: caller) else { throw .unknownCaller }
        let claims: InternalCallClaims
        do {
            claims = try await keys.verify(token, as: InternalCallClaims.self)
        } catch {
            throw .invalid
        }
        guard claims.aud.value == [module.rawValue] else { throw .notForThisModule }
        guard claims.exp.value.addingTimeInterval(leeway) > now() else { throw .expired }
        if verified.count >= verifiedCapacity { verified.removeAll(keepingCapacity: true) }
        verified[token] = (caller, claims.exp.value)
        return caller
    }

    /// A collection holding only `caller`'s public key: a token naming one module and signed by
    /// another's key does not verify.
    private func keys(of caller: ServiceModule) async -> JWTKeyCollection? {
        if let keys = keysByCaller[caller] { return keys }
        guard let key = publicKeys[caller] else { return nil }
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PublicKey(backing: key), kid: JWKIdentifier(string: caller.rawValue))
        keysByCaller[caller] = keys
        return keys
    }
}
