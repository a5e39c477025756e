import Contracts
import HTTPTypes
import Instrumentation
import ServiceContextModule
import ServiceKit
import Tracing

/// A relayed request's spans, as a request through the router gets them (`ServerSpanMiddleware`,
/// then `ProxyMiddleware`'s client span): a server span continuing the caller's trace, and inside it
/// a client span for the call to the module, whose context the module continues. A span that is not
/// recorded only carries the decision on; a caller's unsampled trace is carried on as it came.
final class RelayTrace {
    private let server: (any Span)?
    private var client: (any Span)?
    /// What the module is told of the trace: the request's, or its call's once there is one.
    private(set) var upstreamContext: ServiceContext?

    init(_ head: HTTPRequest, route: RouteTable.Entry, path: String) {
        // Without tracing, a trace the caller sent goes on as it came (its headers are forwarded).
        guard HuddleTracing.isStarted else {
            (server, upstreamContext) = (nil, nil)
            return
        }
        var parent = ServiceContext.topLevel
        TraceContext.extract(from: head.headerFields, into: &parent)
        if HuddleTracing.followsTheCaller, let traceparent = head.headerFields[TraceContext.traceparent], traceparent.hasSuffix("-00") {
            (server, upstreamContext) = (nil, parent)
            return
        }
        let span = InstrumentationSystem.tracer.startAnySpan(unnamedServerSpan, context: parent, ofKind: .server)
        guard span.isRecording else {
            span.end()
            (server, upstreamContext) = (nil, span.context)
            return
        }
        span.operationName = route.route
        span.attributes["huddle.module"] = ServiceModule.gateway.rawValue
        span.attributes["http.request.method"] = head.method.rawValue
        span.attributes["url.path"] = path
        span.attributes["http.route"] = route.route
        (server, upstreamContext) = (span, span.context)
    }

    /// The call to the module begins: within a recorded request, a client span of its own.
    func callStarts(_ head: HTTPRequest, route: RouteTable.Entry) {
        guard let server else { return }
        let call = InstrumentationSystem.tracer.startAnySpan(
            "\(head.method.rawValue) \(route.route)", context: server.context, ofKind: .client)
        call.attributes["huddle.callee"] = route.module.rawValue
        client = call
        upstreamContext = call.context
    }

    /// The trace a problem names: the request's, when it is recorded.
    var traceID: String? { server.flatMap { TraceContext.traceID(of: $0.context) } }

    /// The module answered `status`.
    func moduleAnswered(_ status: Int) { client?.attributes["http.response.status_code"] = status }

    /// The call to the module failed with `error`.
    func callFailed(_ error: any Error) {
        client?.recordError(error)
        client?.setStatus(SpanStatus(code: .error))
    }

    /// The client is answered `status`: a recorded trace is named in `traceresponse`.
    func answered(_ status: Int, headers: inout HTTPFields) {
        guard let server else { return }
        server.attributes["http.response.status_code"] = status
        if status >= 500 { server.setStatus(SpanStatus(code: .error)) }
        if let carried = CarriedTrace(context: server.context) { headers[TraceContext.traceresponse] = carried.traceparent }
    }

    func end() {
        client?.end()
        server?.end()
    }
}
