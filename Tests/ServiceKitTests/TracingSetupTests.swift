import Foundation
import Testing
import Tracing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// What tracing does when it is not asked for, and what Huddle's own spans do outside a recorded trace.
@Suite("Tracing setup")
struct TracingSetupTests {
    @Test("without an OTLP endpoint tracing stays off, whatever else is set; either endpoint turns it on")
    func offWithoutAnEndpoint() {
        #expect(!HuddleTracing.isOn([:]))
        #expect(!HuddleTracing.isOn(["OTEL_TRACES_SAMPLER": "always_on", "OTEL_SERVICE_NAME": "auth"]))
        #expect(HuddleTracing.isOn(["OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"]))
        #expect(HuddleTracing.isOn(["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://collector:4318/v1/traces"]))
    }

    @Test("Huddle's own spans are made only inside a recorded trace; outside one the work runs alone")
    func ownSpansOnlyInsideARecordedTrace() async throws {
        let outside = await withSpanWhenTraced("outside") { span in span == nil }
        #expect(outside)
        let inside = await TraceContext.$recording.withValue(true) { await withSpanWhenTraced("inside") { span in span != nil } }
        #expect(inside)
        #expect(TraceContext.traceID == nil)
    }
}
