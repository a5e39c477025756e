import HTTPTypes
public import Hummingbird

/// Says `Connection: close` in the answer to a request that asked for it. Hummingbird closes such a
/// connection once the answer is written (it compares the request's field with `close`, as here)
/// but does not say so; RFC 9112 §9.6 asks the server to, so that a client reading the answer knows
/// the connection ends with it and sends nothing more down it.
public struct CloseAnnounced<Base: HTTPResponder>: HTTPResponder {
    public typealias Context = Base.Context
    let base: Base

    public init(_ base: Base) { self.base = base }

    public func respond(to request: Request, context: Context) async throws -> Response {
        var response = try await base.respond(to: request, context: context)
        if request.headers.value(of: .connection) == "close" { response.headers[.connection] = "close" }
        return response
    }
}

extension Router {
    /// This router's responder as every Huddle server answers: `HEAD` as `GET` without the body
    /// (`HeadAnsweredAsGet`), and a connection's close announced (`CloseAnnounced`).
    public func huddleResponder() -> CloseAnnounced<HeadAnsweredAsGet<RouterResponder<Context>>> {
        CloseAnnounced(HeadAnsweredAsGet(buildResponder()))
    }
}
