public import Contracts
public import Crypto
public import Foundation
public import JWTKit
import NIOConcurrencyHelpers

/// What an internal call carries in `X-Internal-Token`: a short-lived token, signed with the calling
/// module's own key, naming the caller (`iss`) and the one module it is for (`aud`), so a module that
/// receives it cannot pass it on to a third as the caller's.
public struct InternalCallClaims: JWTPayload, Equatable {
    /// How long a token lasts; a caller reuses one for half of that.
    public static let lifetime: TimeInterval = 5 * 60

    public var iss: IssuerClaim
    public var aud: AudienceClaim
    public var exp: ExpirationClaim

    public init(caller: ServiceModule, callee: ServiceModule, expires: Date) {
        iss = .init(value: caller.rawValue)
        aud = .init(value: [callee.rawValue])
        exp = .init(value: expires)
    }

    /// Expiry is checked by `InternalCallVerifier`, against its own clock.
    public func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// A module's own credential for internal calls: it signs, as that module, a token for each module
/// it calls, and reuses it for half its lifetime (an Ed25519 signature costs tens of microseconds,
/// a dictionary lookup none).
public final class ModuleCredential: Sendable {
    public let module: ServiceModule
    private let key: Curve25519.Signing.PrivateKey
    private let keys = JWTKeyCollection()
    private let keyAdded = NIOLockedValueBox(false)
    private let now: @Sendable () -> Date
    private let issued = NIOLockedValueBox<[ServiceModule: (token: String, renewAfter: Date)]>([:])

    public init(module: ServiceModule, key: Curve25519.Signing.PrivateKey, now: @escaping @Sendable () -> Date) {
        self.module = module
        self.now = now
        self.key = key
    }

    /// A token naming this module as the caller of `callee`.
    public func token(for callee: ServiceModule) async throws -> String {
        let now = now()
        if let current = issued.withLockedValue({ $0[callee] }), current.renewAfter > now { return current.token }
        let claims = InternalCallClaims(
            caller: module, callee: callee, expires: now.addingTimeInterval(InternalCallClaims.lifetime).roundedDownToSeconds)
        let token = try await sign(claims)
        issued.withLockedValue { $0[callee] = (token, now.addingTimeInterval(InternalCallClaims.lifetime / 2)) }
        return token
    }

    /// `claims` signed as this module: a token for an internal call, or a grant another module checks
    /// against this one's public key (`RSVPGrant`).
    public func sign(_ claims: some JWTPayload) async throws -> String {
        if !keyAdded.withLockedValue({ $0 }) {
            // Adding the same key twice, should two first calls race here, replaces it with itself.
            await keys.add(eddsa: EdDSA.PrivateKey(backing: key), kid: JWKIdentifier(string: module.rawValue))
            keyAdded.withLockedValue { $0 = true }
        }
        return try await keys.sign(claims, kid: JWKIdentifier(string: module.rawValue))
    }
}

extension Date {
    /// NumericDate in whole seconds, as JWTs carry it.
    fileprivate var roundedDownToSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

/// Signs internal calls as any module whose key it holds, for tools that stand in for modules (the
/// tests, the benchmarks): as `caller` when one is named, otherwise as a module the wiring lets call
/// the operation (`Wiring.callers`).
public struct InternalCallers: Sendable {
    private let credentials: [ServiceModule: ModuleCredential]
    public let caller: ServiceModule?

    public init(keys: InternalKeys, as caller: ServiceModule? = nil, now: @escaping @Sendable () -> Date) {
        credentials = Dictionary(
            uniqueKeysWithValues: keys.privateKeys.keys.compactMap { module in keys.credential(of: module, now: now).map { (module, $0) } })
        self.caller = caller
    }

    private init(credentials: [ServiceModule: ModuleCredential], caller: ServiceModule?) {
        self.credentials = credentials
        self.caller = caller
    }

    /// The same keys, signing as `caller`.
    public func acting(as caller: ServiceModule) -> InternalCallers { InternalCallers(credentials: credentials, caller: caller) }

    /// A token for the internal operation at `route` of `owner`; nil when no key held may call it.
    public func token(calling owner: ServiceModule, at route: String) async throws -> String? {
        guard let caller = caller ?? Wiring.callers(of: owner, at: route).sorted(by: { $0.rawValue < $1.rawValue }).first,
            let credential = credentials[caller]
        else { return nil }
        return try await credential.token(for: owner)
    }
}
