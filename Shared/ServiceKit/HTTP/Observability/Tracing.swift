public import Foundation
public import HTTPTypes
public import Instrumentation
public import Logging
import NIOConcurrencyHelpers
public import NIOHTTP1
import OTel
import ServiceContextModule
public import ServiceLifecycle
public import Tracing

/// Traces through OpenTelemetry (swift-distributed-tracing, exported by swift-otel over OTLP/HTTP),
/// configured by the standard variables: `OTEL_EXPORTER_OTLP_ENDPOINT` or
/// `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (tracing is off without one), `OTEL_EXPORTER_OTLP_PROTOCOL`
/// (`http/protobuf`, or `http/json`), `OTEL_SERVICE_NAME` (the module by default, `huddle` for the one
/// process), `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG` (e.g. `parentbased_traceidratio`
/// and `0.1`), `OTEL_BSP_SCHEDULE_DELAY`. swift-otel's own metrics and logs stay off: Prometheus
/// and swift-log remain the metrics and the logs, and log lines made inside a span carry its
/// `trace_id` and `span_id` (`Logger.MetadataProvider.tracing`).
public enum HuddleTracing {
    private static let started = NIOLockedValueBox(false)
    private static let parentDecides = NIOLockedValueBox(false)

    /// Whether a request that arrives with a trace's decision follows it (a `parentbased_*` sampler,
    /// the default): then one whose caller did not sample it needs no span here to decide again.
    public static var followsTheCaller: Bool { parentDecides.withLockedValue { $0 } }

    /// Whether this process records traces at all (`bootstrap` found an endpoint).
    public static var isStarted: Bool { started.withLockedValue { $0 } }

    /// Whether `environment` asks for traces: an OTLP endpoint for them. Without one nothing is
    /// bootstrapped, so no span is recorded or exported.
    static func isOn(_ environment: [String: String]) -> Bool {
        environment["OTEL_EXPORTER_OTLP_ENDPOINT"] != nil || environment["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] != nil
    }

    /// Bootstraps the process's tracer, once; answers the service that exports spans (run it beside
    /// the modules), or nil when tracing is off or already started. Call it before any `HTTPClient`
    /// is made: AsyncHTTPClient takes the tracer when it is created. `defaults` fill in variables
    /// the environment does not set (`huddle` sends to its stand-in).
    public static func bootstrap(
        serviceName: String, environment: [String: String] = ProcessInfo.processInfo.environment, defaults: [String: String] = [:]
    ) throws -> (any Service)? {
        let environment = environment.merging(defaults) { set, _ in set }
        guard isOn(environment) else { return nil }
        guard
            started.withLockedValue({ started in
                defer { started = true }; return !started
            })
        else { return nil }
        parentDecides.withLockedValue { $0 = environment["OTEL_TRACES_SAMPLER"].map { $0.hasPrefix("parentbased_") } ?? true }
        var configuration = OTel.Configuration.default
        configuration.serviceName = serviceName
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        return try OTel.bootstrap(configuration: configuration, environment: environment)
    }
}

extension Logger.MetadataProvider {
    /// `trace_id`, `span_id` and `trace_flags` of the span a log line is made in (nothing outside one,
    /// or with tracing off).
    public static let tracing = OTel.makeLoggingMetadataProvider()
}

/// A trace context kept with work done later, out of the request that asked for it (an event in the
/// outbox, a push in the queue): its `traceparent` and `tracestate` as stored, and the context that
/// continues it when the work is done.
public struct CarriedTrace: Equatable, Sendable {
    public var traceparent: String
    public var tracestate: String?

    public init?(traceparent: String?, tracestate: String?) {
        guard let traceparent else { return nil }
        self.traceparent = traceparent
        self.tracestate = tracestate
    }

    /// The current span's, when there is one to keep.
    public static var current: CarriedTrace? { CarriedTrace(context: .current) }

    /// The current span's when it is recorded (`TraceContext.recording`): what work left for later
    /// keeps. One that is not recorded is left behind, so the later work makes no spans for it.
    public static var recorded: CarriedTrace? { TraceContext.recording ? current : nil }

    /// `context`'s span, as headers would carry it.
    public init?(context: ServiceContext?) {
        var fields = HTTPFields()
        TraceContext.inject(into: &fields, context: context)
        self.init(traceparent: fields[TraceContext.traceparent], tracestate: fields[TraceContext.tracestate])
    }

    /// A context continuing the kept one.
    public var context: ServiceContext {
        var fields = HTTPFields()
        fields[TraceContext.traceparent] = traceparent
        if let tracestate { fields[TraceContext.tracestate] = tracestate }
        var context = ServiceContext.topLevel
        TraceContext.extract(from: fields, into: &context)
        return context
    }
}

/// The W3C trace context of the current span, as headers carry it: what goes to the next hop
/// (`traceparent`, `tracestate`), what a response tells its caller (`traceresponse`), and what a
/// problem names (`traceId`).
public enum TraceContext {
    public static let traceparent = HTTPField.Name("traceparent")!
    public static let traceresponse = HTTPField.Name("traceresponse")!
    public static let tracestate = HTTPField.Name("tracestate")!

    /// Adds the current span's context to `fields` (nothing without a span, or with tracing off).
    public static func inject<Fields: TraceCarrier>(into fields: inout Fields, context: ServiceContext? = .current) {
        guard let context else { return }
        InstrumentationSystem.instrument.inject(context, into: &fields, using: TraceCarrierInjector<Fields>())
    }

    /// A context continuing the one `fields` carry (as a consumer continues an event's trace).
    public static func extract<Fields: TraceCarrier>(from fields: Fields, into context: inout ServiceContext) {
        InstrumentationSystem.instrument.extract(fields, into: &context, using: TraceCarrierExtractor<Fields>())
    }

    /// Whether the work under way is part of a trace being recorded (sampled): set by whoever starts
    /// a recorded span that others work inside (a request's server span, an event's apply span, a
    /// socket's connect span, a push's). The spans of Huddle's own making inside (`withSpanWhenTraced`)
    /// are made only then; outside any trace — a worker's loop — they would start traces of their own.
    @TaskLocal public static var recording = false

    /// The current span's `traceparent` (recorded or not: one that is not still carries the decision on).
    public static var current: String? { CarriedTrace.current?.traceparent }

    /// The trace id of the current span when it is recorded (sampled): the second field of its
    /// `traceparent`. An unsampled trace's id leads nowhere, so a problem does not name it.
    public static var traceID: String? { recording ? traceID(of: .current) : nil }

    /// The trace id of `context`'s span when it is sampled.
    public static func traceID(of context: ServiceContext?) -> String? {
        guard let parts = CarriedTrace(context: context)?.traceparent.split(separator: "-"), parts.count == 4,
            let flags = UInt8(parts[3], radix: 16), flags & 1 == 1
        else { return nil }
        return String(parts[1])
    }
}

/// `work` in a span named `name` when the work under way is part of a recorded trace
/// (`TraceContext.recording`); otherwise `work` alone, given no span.
public func withSpanWhenTraced<T>(
    _ name: @autoclosure () -> String, ofKind kind: SpanKind = .internal, _ work: (_ span: (any Span)?) async throws -> T
) async rethrows -> T {
    guard TraceContext.recording else { return try await work(nil) }
    return try await withSpan(name(), ofKind: kind) { span in try await work(span) }
}

/// Headers a trace context travels in: swift-http-types' fields, as routers and clients hold them,
/// and NIO's HTTP/1 headers, as the gateway's relay holds a request it passes on without converting
/// it (`ModuleRelay`).
public protocol TraceCarrier {
    /// The field named `name` (any case): its value, or none; setting replaces every such field.
    subscript(traceField name: String) -> String? { get set }
}

extension HTTPFields: TraceCarrier {
    public subscript(traceField name: String) -> String? {
        get { HTTPField.Name(name).flatMap { self[$0] } }
        set { if let field = HTTPField.Name(name) { self[field] = newValue } }
    }
}

extension HTTPHeaders: TraceCarrier {
    public subscript(traceField name: String) -> String? {
        get { first(name: name) }
        set {
            if let newValue { replaceOrAdd(name: name, value: newValue) } else { remove(name: name) }
        }
    }
}

struct TraceCarrierInjector<Carrier: TraceCarrier>: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout Carrier) {
        carrier[traceField: key] = value
    }
}

struct TraceCarrierExtractor<Carrier: TraceCarrier>: Extractor {
    func extract(key: String, from carrier: Carrier) -> String? {
        carrier[traceField: key]
    }
}
