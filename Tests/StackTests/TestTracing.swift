import Configuration
import Foundation
import Hummingbird
import Logging
import NIOHTTP1
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import ServiceLifecycle

/// This test process's tracer: bootstrapped on first use, sending OTLP/HTTP JSON to a stand-in
/// collector of its own every 100 ms. Only requests that arrive with a sampled `traceparent` are
/// recorded (`parentbased_always_off`), so the tests that do not trace send nothing.
enum TestTracing {
    /// The collector's base URL (`GET /test/traces/{traceId}` there): the deployed stand-in's, whom a
    /// topology's services send their spans to, or this process's own.
    static func collector() async throws -> String {
        if StackTests.deployedGateway != nil, let standInURL { return standInURL }
        return try await started.value
    }

    private static let started = Task<String, any Error> {
        let (ports, portInput) = AsyncStream<Int>.makeStream()
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["standin.http.port": "0"]))
        let collector = buildProviderStandIns(reader: reader, logger: Logger(label: "test-collector"), onListening: { portInput.yield($0) })
        Task.detached { try await collector.runService() }
        var iterator = ports.makeAsyncIterator()
        let url = "http://127.0.0.1:\(await iterator.next() ?? 0)"
        let tracing = try HuddleTracing.bootstrap(
            serviceName: "huddle-tests", environment: [:],
            defaults: [
                "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "\(url)/v1/traces", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json",
                "OTEL_TRACES_SAMPLER": "parentbased_always_off", "OTEL_BSP_SCHEDULE_DELAY": "100",
            ])
        if let tracing { Task.detached { try await tracing.run() } }
        return url
    }

    /// A fresh sampled `traceparent`, and its trace id.
    static func newTrace() -> (traceparent: String, traceID: String) {
        func hex(_ count: Int) -> String { (0..<count).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }
        let traceID = hex(16)
        return ("00-\(traceID)-\(hex(8))-01", traceID)
    }
}

/// A span as the collector lists it.
struct CollectedSpan: Decodable {
    var traceId: String
    var spanId: String
    var parentSpanId: String?
    var name: String
    var service: String
    var attributes: [String: AttributeValue]

    enum AttributeValue: Decodable, Equatable {
        case text(String), other
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            self = (try? container.decode(String.self)).map(AttributeValue.text) ?? .other
        }
    }

    var module: String? {
        if case .text(let module) = attributes["huddle.module"] { return module }
        return nil
    }
}

/// The spans of one trace the collector received, and how they descend from one another.
struct CollectedTrace: Sequence {
    let spans: [CollectedSpan]
    private let byID: [String: CollectedSpan]

    init(_ spans: [CollectedSpan]) {
        self.spans = spans
        byID = Dictionary(spans.map { ($0.spanId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The trace as the collector holds it once `done` says it is whole (a span is exported when it
    /// ends, so the last ones can come seconds after the answer); what it holds after `within` otherwise.
    static func polled(_ traceID: String, within: Duration = .seconds(20), until done: @escaping ([CollectedSpan]) -> Bool)
        async throws -> CollectedTrace
    {
        let collector = try await TestTracing.collector()
        return CollectedTrace(
            try await poll(within: within) {
                try await TestClient(baseURL: collector).raw(.GET, "/test/traces/\(traceID)").decode([String: [CollectedSpan]].self)[
                    "spans"]
                    ?? []
            } until: {
                done($0)
            })
    }

    func makeIterator() -> IndexingIterator<[CollectedSpan]> { spans.makeIterator() }

    func parent(of span: CollectedSpan) -> CollectedSpan? { span.parentSpanId.flatMap { byID[$0] } }

    /// Parent, grandparent and so on, nearest first.
    func ancestors(of span: CollectedSpan) -> [CollectedSpan] {
        var chain: [CollectedSpan] = []
        var next = parent(of: span)
        while let parent = next, chain.count < 20 {
            chain.append(parent)
            next = self.parent(of: parent)
        }
        return chain
    }
}
