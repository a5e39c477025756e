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
        let start = ServerSpan.start(
            for: request.headers, method: request.method.rawValue, path: request.uri.path, module: module,
            parent: ServiceContext.current ?? .topLevel)
        let span: any Span
        switch start {
        case .carried(let parent):
            return try await ServiceContext.$current.withValue(parent) { try await next(request, context) }
        case .unrecorded(let unrecorded):
            defer { unrecorded.end() }
            return try await ServiceContext.$current.withValue(unrecorded.context) { try await next(request, context) }
        case .recorded(let recorded):
            span = recorded
        }
        do {
            var response = try await ServiceContext.$current.withValue(span.context) {
                try await TraceContext.$recording.withValue(true) { try await next(request, context) }
            }
            ServerSpan.answered(span, route: context.endpointPath, status: Int(response.status.code), headers: &response.headers)
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
