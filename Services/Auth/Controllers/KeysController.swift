import Contracts
import Foundation
import Hummingbird
import JWTKit
import ServiceHTTP

/// `GET /.well-known/jwks.json`: the public keys that verify access tokens.
struct KeysController: Controller {
    let keys: LocalKeySource

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.keys, headers: [.cacheControl: "public, max-age=300"], use: publicKeySet)
    }

    /// `GET /.well-known/jwks.json`
    @Sendable func publicKeySet(_ request: Request, _ context: HuddleRequestContext) async throws -> JSONWebKeySet {
        try JSONWebKeySet(await keys.publicKeys())
    }
}

extension JSONWebKeySet {
    /// The wire form of jwt-kit's key set.
    init(_ jwks: JWKS) throws {
        self = try HuddleJSON.decoder.decode(JSONWebKeySet.self, from: try HuddleJSON.encoder.encode(jwks))
    }
}
