import Contracts
import HTTPTypes
public import Hummingbird
import Logging

/// Turns every error into problem+json. Known problems pass through (the code raising a 5xx one
/// logs its cause); Hummingbird's own errors (unknown route, body too large) keep their status;
/// anything else is logged with the request id and answered with a bare 500 that reveals nothing
/// internal.
public enum ProblemMiddleware {
    /// In the request's language (`Accept-Language`): the problem's title, and the details every module shares.
    public static func render(_ error: any Error, request: Request, context: some RequestContext) throws -> Response {
        let language = Language(acceptLanguage: request.headers[.acceptLanguage]) ?? .en
        var response = try RequestLanguage.$current.withValue(language) {
            try Self.response(for: error, request: request, context: context)
        }
        if response.status == .unauthorized, response.headers.value(of: .wwwAuthenticate) == nil {
            response.headers[.wwwAuthenticate] = BearerChallenge.header(tokenSent: request.headers.bearerToken != nil)
        }
        return response
    }

    private static func response(for error: any Error, request: Request, context: some RequestContext) throws -> Response {
        switch error {
        case let problem as any ProblemError:
            // Expected failures: whoever raised a 5xx problem logged its cause there.
            return try problem.response(from: request, context: context)
        case let httpError as HTTPError where httpError.status == .notFound:
            // The router found no route: say so distinctly from "no such resource".
            return try ProblemResponse.make(CommonError.noSuchRoute.problem)
        case let httpError as HTTPError:
            return try ProblemResponse.make(
                CommonError.http(status: httpError.status.code, message: httpError.body).problem,
                headers: httpError.headers)
        case let responseError as any HTTPResponseError:
            return try ProblemResponse.make(CommonError.http(status: responseError.status.code, message: nil).problem)
        default:
            context.logger.error("unhandled error on \(request.method) \(request.uri.path): \(String(reflecting: error))")
            return try ProblemResponse.make(CommonError.internalError.problem)
        }
    }
}
