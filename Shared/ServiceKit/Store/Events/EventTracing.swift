public import Contracts
import Instrumentation
public import ServerContracts
import ServiceContextModule
import ServiceHTTP
import Tracing

/// An event continues the trace of the request that caused it: the outbox stores the trace context
/// with the event in the change's transaction, the dispatcher sends it in a span of that trace, and
/// the consumer applies it in a child of that span, so a consumer's work shows in the trace of the
/// request, however much later it runs.
public enum EventTracing {
    /// The current span's context, as an event keeps it, when it is recorded.
    static func stamp(_ event: inout EventEnvelope) {
        guard event.traceparent == nil, let carried = CarriedTrace.recorded else { return }
        (event.traceparent, event.tracestate) = (carried.traceparent, carried.tracestate)
    }

    /// The context an event carries, or nil for one made outside a trace.
    static func context(of event: EventEnvelope) -> ServiceContext? {
        CarriedTrace(traceparent: event.traceparent, tracestate: event.tracestate)?.context
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
                let carried = CarriedTrace(context: span.context)
                (sent[index].traceparent, sent[index].tracestate) = (carried?.traceparent, carried?.tracestate)
            }
            try await deliver(sent)
        }
    }

    /// Runs `apply` with each traced event in a consumer span of its own trace (`apply <type>`), made
    /// by `module`. A batch is applied in one transaction, so no one span is current for all of it:
    /// the handler of each event runs in its own (`applying(_:_:)`), and what it leaves for later (a
    /// push) keeps that event's trace.
    public static func consuming(_ events: [EventEnvelope], by module: ServiceModule, _ apply: () async throws -> Void) async throws {
        try await within(events, kind: .consumer, name: { "apply \($0.type)" }, module: module, callee: nil) { spans in
            let applying = Dictionary(spans.map { (events[$0.0].id, $0.1) }) { first, _ in first }
            try await $applySpans.withValue(applying) { try await apply() }
        }
    }

    /// The apply spans of the batch being applied, by event.
    @TaskLocal private static var applySpans: [EventID: any Span] = [:]

    /// Runs `work` (one event's handler) with the event's apply span as the current one.
    static func applying<T>(_ event: EventEnvelope, _ work: () async throws -> T) async rethrows -> T {
        guard let span = applySpans[event.id] else { return try await work() }
        return try await ServiceContext.withValue(span.context) {
            try await TraceContext.$recording.withValue(span.isRecording) { try await work() }
        }
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
