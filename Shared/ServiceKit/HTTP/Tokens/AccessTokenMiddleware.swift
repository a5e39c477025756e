import Contracts
public import HTTPTypes
public import Hummingbird
public import Logging

/// Sets `context.identity` from a valid `Authorization: Bearer` token. A request without a token
/// passes on anonymous (protected routes then refuse it through `AuthenticatedContext`); a request
/// with a bad, expired or revoked token is refused here with 401.
public struct AccessTokenMiddleware: RouterMiddleware {
    public typealias Context = HuddleRequestContext
    let verifier: TokenVerifier

    public init(verifier: TokenVerifier) { self.verifier = verifier }

    public func handle(
        _ request: Request, context: HuddleRequestContext,
        next: (Request, HuddleRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let identity = try await verifier.identity(of: request.headers, logger: context.logger) else {
            return try await next(request, context)
        }
        var context = context
        context.identity = identity
        return try await RequestMetadata.$userID.withValue(context.identity?.userID.description) {
            try await next(request, context)
        }
    }
}

extension TokenVerifier {
    /// Who a request's `Authorization: Bearer` token names: nil without a token; a 401 for a bad,
    /// expired or revoked one, a 503 when auth's keys cannot be had. Every route that reads a token
    /// reads it here, the HTTP middleware and the live sockets' upgrades alike.
    public func identity(of headers: HTTPFields, logger: Logger? = nil) async throws -> Identity? {
        guard let token = headers.bearerToken else { return nil }
        do {
            return try await verify(token)
        } catch .keysUnavailable {
            logger?.warning("cannot fetch auth's public keys to verify a token")
            throw CommonError.dependencyUnavailable("Token verification")
        } catch .revoked {
            throw CommonError.unauthorized("This session has ended; sign in again.")
        } catch {
            throw CommonError.unauthorized("The access token is invalid or expired.")
        }
    }
}
