public import Hummingbird

/// Answers `HEAD` on every `GET` route as RFC 9110 §9.3.2 asks: the head the `GET` would have
/// answered, without its body. Routes are registered for `GET` only, so the router alone would call
/// `HEAD` a wrong method.
public struct HeadAnsweredAsGet<Base: HTTPResponder>: HTTPResponder {
    public typealias Context = Base.Context
    let base: Base

    public init(_ base: Base) { self.base = base }

    public func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        return try await base.respond(to: Request(head: head, body: request.body), context: context).createHeadResponse()
    }
}
