import Contracts
public import Hummingbird
import Logging
import ServerContracts

/// Guards every internal operation: the caller must be a module, proven by its signed token
/// (`InternalCallVerifier`), and one the wiring lets call this operation (`Wiring.callers`). Other
/// routes pass untouched. The gateway never routes `/internal/...`, so clients cannot reach these
/// anyway; this stops anything else on the network that can, and any module from speaking as another.
///
/// It decides on the route the router resolved, not on the path as spelt: the router reads
/// `//internal/x` and `/internal/x` alike, so a check of the spelling let the first through.
public struct InternalCallerMiddleware: RouterMiddleware {
    public typealias Context = HuddleRequestContext
    let verifier: InternalCallVerifier

    public init(verifier: InternalCallVerifier) { self.verifier = verifier }

    public func handle(
        _ request: Request, context: HuddleRequestContext, next: (Request, HuddleRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let route = context.endpointPath, route.hasPrefix(Routes.internalPrefix + "/") else {
            return try await next(request, context)
        }
        let module = verifier.module
        func refuse(_ reason: String) {
            context.logger.warning(
                "refused an internal call: \(reason)",
                metadata: [
                    "route": .string(route), "path": .string(request.uri.path),
                    "peer": .string(context.remoteAddress.map { "\($0)" } ?? "unknown"),
                ])
        }
        guard let token = request.headers[.internalToken] else {
            refuse("no internal credential")
            throw CommonError.unauthorized("Internal credential required.")
        }
        let caller: ServiceModule
        do {
            caller = try await verifier.caller(of: token)
        } catch {
            refuse("credential \(error)")
            throw CommonError.unauthorized("Internal credential required.")
        }
        guard Wiring.callers(of: module, at: route).contains(caller) else {
            refuse("\(caller.rawValue) does not call this operation of \(module.rawValue)")
            throw CommonError.forbidden("\(caller.rawValue) may not call this operation.")
        }
        var context = context
        context.internalCaller = caller
        return try await next(request, context)
    }
}
