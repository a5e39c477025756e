import Crypto
import Foundation
public import Hummingbird

/// Guards every path under `/internal/`: the caller must present the shared internal credential in
/// `X-Internal-Token`. The gateway never routes these paths, so clients cannot reach them anyway;
/// this stops anything else on the network that can. Other paths pass untouched.
public struct InternalCredentialMiddleware<Context: RequestContext>: RouterMiddleware {
    private let expectedDigest: SHA256.Digest

    public init(token: String) {
        self.expectedDigest = SHA256.hash(data: Data(token.utf8))
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard request.uri.path.hasPrefix("/internal/") else { return try await next(request, context) }
        let given = request.headers.value(of: .internalToken) ?? ""
        // Comparing digests keeps the comparison time independent of where the strings differ.
        guard SHA256.hash(data: Data(given.utf8)) == expectedDigest else {
            throw CommonError.unauthorized("Internal credential required.")
        }
        return try await next(request, context)
    }
}
