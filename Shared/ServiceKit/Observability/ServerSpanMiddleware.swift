public import Contracts
public import Hummingbird
import NIOConcurrencyHelpers
import Tracing

/// Each request's server span, continuing the trace its `traceparent` names, named by its route and
/// marked with the module that answered; a recorded one answers `traceresponse` (W3C Trace Context
/// level 2) with it. Outermost, so the request id, the problem and every log line of the request
/// are inside it.
///
/// Hummingbird's `TracingMiddleware` does the same, but fills in a dozen attributes for every request,
/// recorded or not. With one trace in ten kept, that work on the other nine — with the spans made
/// inside them and their `traceresponse` — cost the gateway and auth 9–16 % of their throughput
/// (`huddle-bench tracing`; perf: attribute building, `traceresponse` formatting and span starts
/// about 8 % of the CPU). A span that is not recorded here only carries the decision on, to the
/// modules called and as `TraceContext.recording` to the code inside.
public struct ServerSpanMiddleware<Context: RequestContext>: RouterMiddleware {
    let module: ServiceModule

    public init(module: ServiceModule) { self.module = module }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        TraceContext.extract(from: request.headers, into: &parent)
        // A caller's trace it did not sample stays unsampled (a parent-based sampler): the caller's
        // context, carried on as it came, says so to the modules called, with no span made here.
        if HuddleTracing.followsTheCaller, let traceparent = request.headers[TraceContext.traceparent], traceparent.hasSuffix("-00") {
            return try await ServiceContext.$current.withValue(parent) { try await next(request, context) }
        }
        // Named once it is known to be recorded: the name of one that is not is thrown away.
        let span = InstrumentationSystem.tracer.startAnySpan(unnamedServerSpan, context: parent, ofKind: .server)
        guard span.isRecording else {
            defer { span.end() }
            return try await ServiceContext.$current.withValue(span.context) { try await next(request, context) }
        }
        span.operationName = "\(request.method.rawValue) \(request.uri.path)"
        span.attributes["huddle.module"] = module.rawValue
        span.attributes["http.request.method"] = request.method.rawValue
        span.attributes["url.path"] = request.uri.path
        do {
            var response = try await ServiceContext.$current.withValue(span.context) {
                try await TraceContext.$recording.withValue(true) { try await next(request, context) }
            }
            if let route = context.endpointPath { span.operationName = route }
            span.attributes["http.route"] = context.endpointPath
            span.attributes["http.response.status_code"] = Int(response.status.code)
            if response.status.code >= 500 { span.setStatus(SpanStatus(code: .error)) }
            if let carried = CarriedTrace(context: span.context) { response.headers[TraceContext.traceresponse] = carried.traceparent }
            // The span lasts until the body is written: a proxied or streamed one takes a while.
            let body = response.body, ending = SpanEnding(span)
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { ending.end() }
                try await body.write(writer)
            }
            return response
        } catch {
            if let route = context.endpointPath { span.operationName = route }
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error))
            span.end()
            throw error
        }
    }
}

/// Ends its span once: when the response body has been written, or when the response is let go
/// without one being written (a WebSocket upgrade's).
private final class SpanEnding: Sendable {
    private let span: NIOLockedValueBox<(any Span)?>

    init(_ span: any Span) { self.span = NIOLockedValueBox(span) }

    func end() { span.withLockedValue { $0.take() }?.end() }

    deinit { end() }
}

/// What a server span is called until it is known to be recorded.
public let unnamedServerSpan = "HTTP request"
