public import Contracts
import HTTPTypes
import Instrumentation
public import ServiceContextModule
import Tracing

/// An event continues the trace of the request that caused it: the outbox stores the trace context
/// with the event in the change's transaction, the dispatcher sends it in a span of that trace, and
/// the consumer applies it in a child of that span, so a consumer's work shows in the trace of the
/// request, however much later it runs.
public enum EventTracing {
    /// The current span's context, as an event keeps it.
    static func stamp(_ event: inout EventEnvelope) {
        guard event.traceparent == nil else { return }
        var fields = HTTPFields()
        TraceContext.inject(into: &fields)
        event.traceparent = fields[TraceContext.traceparent]
        event.tracestate = fields[TraceContext.tracestate]
    }

    /// The context an event carries, or nil for one made outside a trace.
    static func context(of event: EventEnvelope) -> ServiceContext? {
        guard let traceparent = event.traceparent else { return nil }
        var fields = HTTPFields()
        fields[TraceContext.traceparent] = traceparent
        if let tracestate = event.tracestate { fields[TraceContext.tracestate] = tracestate }
        var context = ServiceContext.topLevel
        TraceContext.extract(from: fields, into: &context)
        return context
    }

    /// Runs `deliver` with each traced event in a producer span of its own trace (`send <type>`),
    /// the events handed on carrying those spans' contexts.
    static func dispatching(
        _ events: [EventEnvelope], from publisher: ServiceModule?, to subscriber: ServiceModule,
        _ deliver: ([EventEnvelope]) async throws -> Void
    ) async throws {
        try await within(events, kind: .producer, name: { "send \($0.type)" }, module: publisher, callee: subscriber) { spans in
            var sent = events
            for (index, span) in spans {
                var fields = HTTPFields()
                TraceContext.inject(into: &fields, context: span.context)
                sent[index].traceparent = fields[TraceContext.traceparent]
                sent[index].tracestate = fields[TraceContext.tracestate]
            }
            try await deliver(sent)
        }
    }

    /// Runs `apply` with each traced event in a consumer span of its own trace (`apply <type>`), made
    /// by `module`.
    public static func consuming(_ events: [EventEnvelope], by module: ServiceModule, _ apply: () async throws -> Void) async throws {
        try await within(events, kind: .consumer, name: { "apply \($0.type)" }, module: module, callee: nil) { _ in try await apply() }
    }

    private static func within(
        _ events: [EventEnvelope], kind: SpanKind, name: (EventEnvelope) -> String, module: ServiceModule?, callee: ServiceModule?,
        _ body: ([(Int, any Span)]) async throws -> Void
    ) async throws {
        var spans: [(Int, any Span)] = []
        for (index, event) in events.enumerated() {
            guard let parent = context(of: event) else { continue }
            let span = InstrumentationSystem.tracer.startAnySpan(name(event), context: parent, ofKind: kind)
            span.attributes["huddle.event.id"] = event.id.description
            if let module { span.attributes["huddle.module"] = module.rawValue }
            if let callee { span.attributes["huddle.callee"] = callee.rawValue }
            spans.append((index, span))
        }
        defer { for (_, span) in spans { span.end() } }
        do {
            try await body(spans)
        } catch {
            for (_, span) in spans { span.recordError(error) }
            throw error
        }
    }
}
