import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import ServiceFeatures
import ServiceHTTP

/// An identity provider's public keys (Apple's, Google's), fetched on first use and again (at most
/// every `refetchAfter`) when a token names a `kid` the set lacks: providers rotate their keys without notice.
actor ProviderKeySet {
    private let provider: String
    let keys = JWTKeyCollection()
    private var known: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?
    private let url: String
    private let httpClient: HTTPClient
    private let timeout: Duration
    private let refetchAfter: Duration
    private let logger: Logger

    init(provider: String, url: String, httpClient: HTTPClient, timeout: Duration, refetchAfter: Duration, logger: Logger) {
        self.provider = provider
        self.url = url
        self.httpClient = httpClient
        self.timeout = timeout
        self.refetchAfter = refetchAfter
        self.logger = logger
    }

    /// The claims of `token` once it has passed the checks Apple and Google both document: a JWT
    /// signed RS256 by one of the provider's keys (chosen by `kid`), whose claims verify (expiry,
    /// issuer: `Claims.verify`) and whose audience is one of `audiences`. `what` names it in refusals.
    func verified<Claims: JWTPayload & ProviderAudience>(
        _ token: String, as: Claims.Type, audiences: Set<String>, what: String = "token"
    ) async throws -> Claims {
        let header = try Self.header(of: token)
        guard header.alg == "RS256" else { throw AuthError.invalidProviderToken("The \(what) is not signed with RS256.") }
        guard let kid = header.kid, try await knows(kid) else {
            throw AuthError.invalidProviderToken("The \(what) is not signed with one of \(provider)'s keys.")
        }
        guard let claims = try? await keys.verify(token, as: Claims.self) else {
            throw AuthError.invalidProviderToken("The \(what)'s signature, issuer or expiry does not check out.")
        }
        guard claims.aud.value.contains(where: audiences.contains) else {
            throw AuthError.invalidProviderToken("The \(what) was issued to another app.")
        }
        return claims
    }

    struct Header: Decodable {
        var alg: String?
        var kid: String?
    }

    /// The JOSE header, read before any key is chosen.
    static func header(of token: String) throws -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw AuthError.invalidProviderToken("The token is not a JWT.") }
        return header
    }

    /// Whether `kid` is one of the provider's keys, asking it again once if it was not.
    func knows(_ kid: String) async throws -> Bool {
        if known.contains(kid) { return true }
        if let fetchedAt, ContinuousClock.now - fetchedAt < refetchAfter { return false }
        try await fetch()
        return known.contains(kid)
    }

    private func fetch() async throws {
        struct KeySet: Decodable {
            struct Key: Decodable { let kid: String? }
            let keys: [Key]
        }
        let body: ByteBuffer
        do {
            let response = try await httpClient.callProvider(provider, "keys", .toProvider(url), timeout: .init(timeout))
            guard response.status.code == 200 else { throw AuthError.oauthProviderUnavailable }
            body = try await response.body.collect(upTo: 1 << 20)
        } catch {
            logger.warning("\(provider)'s key set could not be fetched: \(error)")
            throw AuthError.oauthProviderUnavailable
        }
        let json = String(buffer: body)
        guard let set = try? JSONDecoder().decode(KeySet.self, from: Data(json.utf8)), (try? await keys.add(jwksJSON: json)) != nil else {
            logger.warning("\(provider)'s key set could not be read")
            throw AuthError.oauthProviderUnavailable
        }
        known.formUnion(set.keys.compactMap(\.kid))
        fetchedAt = .now
    }
}

/// Claims naming the apps a token was issued to.
protocol ProviderAudience {
    var aud: AudienceClaim { get }
}
