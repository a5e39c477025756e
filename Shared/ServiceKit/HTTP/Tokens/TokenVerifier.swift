public import Contracts
public import Foundation
public import JWTKit
import Logging
public import ServerContracts

/// Where a verifier gets auth's public keys and the sessions auth has revoked. Auth answers from
/// its own store; every other service asks auth over internal HTTP (`AuthClient`).
public protocol AccessKeySource: Sendable {
    func publicKeys() async throws -> JWKS
    func revokedSessions(after cursor: Int64) async throws -> RevokedSessions
}

/// Verifies access tokens locally: signature against auth's JWKS (fetched once, fetched again
/// when a token names a key id it has not seen), expiry, issuer, and that the session has not been
/// revoked. Revocations are pulled by `RevocationPoller` and forgotten once every token of that
/// session has expired anyway.
public actor TokenVerifier {
    private let source: any AccessKeySource
    private let keys = JWTKeyCollection()
    private var knownKeyIDs: Set<String> = []
    private var lastKeyFetch: ContinuousClock.Instant?
    private var keyFetch: Task<Void, any Error>?
    private var revoked: [SessionID: Date] = [:]
    /// Tokens whose signature already checked out. A phone sends the same token for up to 15
    /// minutes, and an Ed25519 verification costs far more than a dictionary lookup; expiry and
    /// revocation are still checked on every use.
    private var verified: [String: (identity: Identity, expiresAt: Date)] = [:]
    private let verifiedCapacity = 10_000
    /// JWT header segment → `kid`; there is one header per signing key, so this stays tiny.
    private var headerKeyIDs: [Substring: String] = [:]
    private(set) var revocationCursor: Int64 = 0
    /// A token naming an unknown key refetches the JWKS at most this often, so garbage tokens
    /// cannot turn into a flood of requests to auth.
    private let keyRefetchInterval: Duration

    /// The module's clock, against which a token's expiry is judged.
    private let now: @Sendable () -> Date

    public init(source: any AccessKeySource, now: @escaping @Sendable () -> Date, keyRefetchInterval: Duration = .seconds(1)) {
        self.source = source
        self.now = now
        self.keyRefetchInterval = keyRefetchInterval
    }

    public enum Failure: Error, Equatable {
        case malformed, unknownKey, invalid, revoked, keysUnavailable
    }

    public func verify(_ token: String) async throws(Failure) -> Identity {
        if let hit = verified[token] {
            guard hit.expiresAt > now() else {
                verified[token] = nil
                throw .invalid
            }
            guard revoked[hit.identity.sessionID] == nil else { throw .revoked }
            return hit.identity
        }
        guard let keyID = keyID(of: token) else { throw .malformed }
        if !knownKeyIDs.contains(keyID) {
            try await refreshKeys()
            guard knownKeyIDs.contains(keyID) else { throw .unknownKey }
        }
        let claims: AccessClaims
        do {
            claims = try await keys.verify(token, as: AccessClaims.self)
        } catch {
            throw .invalid
        }
        guard claims.exp.value > now(), let identity = claims.identity else { throw .invalid }
        guard revoked[identity.sessionID] == nil else { throw .revoked }
        if verified.count >= verifiedCapacity { verified.removeAll(keepingCapacity: true) }
        verified[token] = (identity, claims.exp.value)
        return identity
    }

    /// Records a revocation at once (auth does this on logout, before any poll).
    public func revoke(_ session: SessionID, revokedAt: Date) {
        revoked[session] = revokedAt
    }

    /// Applies one batch from `AccessKeySource.revokedSessions(after:)`; answers the sessions it ended.
    @discardableResult
    public func apply(_ batch: RevokedSessions) -> Set<SessionID> {
        var ended: Set<SessionID> = []
        for entry in batch.items {
            if revoked[entry.sessionID] == nil { ended.insert(entry.sessionID) }
            revoked[entry.sessionID] = entry.revokedAt
        }
        revocationCursor = max(revocationCursor, batch.cursor)
        let horizon = now().addingTimeInterval(-AccessClaims.lifetime - 60)
        revoked = revoked.filter { $0.value > horizon }
        return ended
    }

    /// Asks for the sessions revoked since the last poll; answers those this verifier had not heard of.
    @discardableResult
    public func pollRevocations() async throws -> Set<SessionID> {
        apply(try await source.revokedSessions(after: revocationCursor))
    }

    /// Fetches auth's keys, once for every request that needs them at the same moment: the first
    /// requests after a start arrive together, and each must wait for the one fetch rather than
    /// find it "recently tried" and refuse a good token.
    private func refreshKeys() async throws(Failure) {
        if keyFetch == nil {
            let now = ContinuousClock.now
            if let last = lastKeyFetch, now - last < keyRefetchInterval { return }
            lastKeyFetch = now
            keyFetch = Task { try await self.loadKeysRetrying() }
        }
        guard let fetch = keyFetch else { return }
        do {
            try await fetch.value
        } catch {
            // Allow the next token to try again straight away.
            lastKeyFetch = nil
            keyFetch = nil
            throw .keysUnavailable
        }
        keyFetch = nil
    }

    /// Waits between attempts to fetch the keys before a token is refused with 503: a module that
    /// starts beside auth (a deploy, a test's stack on a loaded machine) may find auth not yet
    /// answering, and its first players would otherwise be refused though auth is up a moment later.
    static let keyFetchRetries: [Duration] = [.milliseconds(100), .milliseconds(400)]

    private func loadKeysRetrying() async throws {
        for wait in Self.keyFetchRetries {
            do {
                return try await loadKeys()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try await Task.sleep(for: wait)
            }
        }
        try await loadKeys()
    }

    private func loadKeys() async throws {
        let jwks = try await source.publicKeys()
        try await keys.add(jwks: jwks)
        knownKeyIDs.formUnion(jwks.keys.compactMap { $0.keyIdentifier?.string })
    }

    private func keyID(of token: String) -> String? {
        guard let headerPart = token.split(separator: ".", maxSplits: 1).first else { return nil }
        if let known = headerKeyIDs[headerPart] { return known }
        guard let keyID = Self.keyID(ofHeader: headerPart) else { return nil }
        if headerKeyIDs.count < 64 { headerKeyIDs[headerPart] = keyID }
        return keyID
    }

    /// The `kid` of a compact JWS header segment, read without verifying anything.
    static func keyID(ofHeader headerPart: Substring) -> String? {
        guard let data = Data(base64URLEncoded: String(headerPart)),
            let header = try? JSONDecoder().decode([String: String?].self, from: data)
        else { return nil }
        return header["kid"] ?? nil
    }
}

/// Base64url (RFC 4648 §5), unpadded, as JWTs and page cursors carry it.
///
/// Mapped on the bytes: the three `replacingOccurrences` this was written with go through NSString,
/// and took 1.9 % of search's CPU a search (perf over 50 km searches) for the cursor of one page.
extension Data {
    public init?(base64URLEncoded text: String) {
        var base64 = text.utf8.map { byte in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: Data(base64))
    }

    public func base64URLEncodedString() -> String {
        let encoded = base64EncodedData().compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
