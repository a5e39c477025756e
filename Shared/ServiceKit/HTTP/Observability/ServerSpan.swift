public import Contracts
import HTTPTypes
import Instrumentation
public import ServiceContextModule
public import Tracing

/// How a request's server span begins and ends: the one rule for the router's middleware
/// (`ServerSpanMiddleware`) and for requests answered below a router (the gateway's relay).
public enum ServerSpan {
    public enum Start {
        /// A caller's trace it did not sample, carried on as it came (a parent-based sampler): no span.
        case carried(ServiceContext)
        /// A span that is not recorded: it only carries the decision on.
        case unrecorded(any Span)
        case recorded(any Span)
    }

    /// Continues the trace `fields` carry (from `parent`). A recorded span is named by the request
    /// until its route is known; the name of one that is not is never made.
    public static func start(
        for fields: some TraceCarrier, method: String, path: String, module: ServiceModule, parent: ServiceContext
    ) -> Start {
        var parent = parent
        TraceContext.extract(from: fields, into: &parent)
        if HuddleTracing.followsTheCaller, let traceparent = fields[traceField: TraceContext.traceparent.canonicalName],
            traceparent.hasSuffix("-00")
        {
            return .carried(parent)
        }
        let span = InstrumentationSystem.tracer.startAnySpan(unnamedServerSpan, context: parent, ofKind: .server)
        guard span.isRecording else { return .unrecorded(span) }
        span.operationName = "\(method) \(path)"
        span.attributes["huddle.module"] = module.rawValue
        span.attributes["http.request.method"] = method
        span.attributes["url.path"] = path
        return .recorded(span)
    }

    /// A recorded span's request was answered `status`: named by its route when there is one, marked
    /// failed for a 5xx, and named to the caller in `traceresponse` (W3C Trace Context level 2).
    public static func answered(_ span: any Span, route: String?, status: Int, headers: inout some TraceCarrier) {
        if let route { span.operationName = route }
        span.attributes["http.route"] = route
        span.attributes["http.response.status_code"] = status
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        if let carried = CarriedTrace(context: span.context) {
            headers[traceField: TraceContext.traceresponse.canonicalName] = carried.traceparent
        }
    }
}

/// What a server span is called until it is known to be recorded.
let unnamedServerSpan = "HTTP request"
