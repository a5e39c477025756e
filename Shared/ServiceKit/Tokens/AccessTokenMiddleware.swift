import Contracts
public import Hummingbird
import Logging

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
        guard let token = request.headers.bearerToken else { return try await next(request, context) }
        var context = context
        do {
            context.identity = try await verifier.verify(token)
        } catch .keysUnavailable {
            context.logger.warning("cannot fetch auth's public keys to verify a token")
            throw CommonError.dependencyUnavailable("Token verification")
        } catch .revoked {
            throw CommonError.unauthorized("This session has ended; sign in again.")
        } catch {
            throw CommonError.unauthorized("The access token is invalid or expired.")
        }
        return try await RequestMetadata.$userID.withValue(context.identity?.userID.description) {
            try await next(request, context)
        }
    }
}
