import Contracts
import Instrumentation
import NIOHTTP1
import ServiceContextModule
import ServiceHTTP
import Tracing

/// A relayed request's spans, as a request through the router gets them: its server span
/// (`ServerSpan`, as `ServerSpanMiddleware` starts and ends it), and inside a recorded one a client
/// span for the call to the module (as `ProxyMiddleware` makes it), whose context the module continues.
final class RelayTrace {
    private let server: (any Span)?
    private var client: (any Span)?
    private let route: RouteTable.Entry
    /// What the module is told of the trace: the request's, or its call's once there is one.
    private(set) var upstreamContext: ServiceContext?

    init(_ head: HTTPRequestHead, route: RouteTable.Entry, path: String) {
        self.route = route
        // Without tracing, a trace the caller sent goes on as it came (its headers are forwarded).
        guard HuddleTracing.isStarted else {
            (server, upstreamContext) = (nil, nil)
            return
        }
        switch ServerSpan.start(for: head.headers, method: head.method.rawValue, path: path, module: .gateway, parent: .topLevel) {
        case .carried(let parent):
            (server, upstreamContext) = (nil, parent)
        case .unrecorded(let span):
            span.end()
            (server, upstreamContext) = (nil, span.context)
        case .recorded(let span):
            (server, upstreamContext) = (span, span.context)
        }
    }

    /// The trace a problem names: the request's, when it is recorded.
    var traceID: String? { server.flatMap { TraceContext.traceID(of: $0.context) } }

    /// The call to the module begins: within a recorded request, a client span of its own.
    func callStarts(_ method: HTTPMethod) {
        guard let server else { return }
        let call = InstrumentationSystem.tracer.startAnySpan("\(method.rawValue) \(route.route)", context: server.context, ofKind: .client)
        call.attributes["huddle.callee"] = route.module.rawValue
        client = call
        upstreamContext = call.context
    }

    /// The module answered `status`.
    func moduleAnswered(_ status: Int) { client?.attributes["http.response.status_code"] = status }

    /// The call to the module failed with `error`.
    func callFailed(_ error: any Error) {
        client?.recordError(error)
        client?.setStatus(SpanStatus(code: .error))
    }

    /// The client is answered `status`.
    func answered(_ status: Int, headers: inout some TraceCarrier) {
        guard let server else { return }
        ServerSpan.answered(server, route: route.route, status: status, headers: &headers)
    }

    func end() {
        client?.end()
        server?.end()
    }
}
