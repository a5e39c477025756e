import Foundation
import ServiceKit
import Testing
import Tracing

/// What tracing does when it is not asked for, and what Huddle's own spans do outside a recorded trace.
@Suite("Tracing setup")
struct TracingSetupTests {
    @Test("without an OTLP endpoint tracing stays off: nothing is bootstrapped, so nothing is exported")
    func offWithoutAnEndpoint() throws {
        #expect(try HuddleTracing.bootstrap(serviceName: "off", environment: [:]) == nil)
        #expect(try HuddleTracing.bootstrap(serviceName: "off", environment: ["OTEL_TRACES_SAMPLER": "always_on"]) == nil)
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
