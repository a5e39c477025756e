import Contracts
import Foundation
import HTTPTypes
import HuddleKit
import Logging
import NIOHTTP1
import ServiceContextModule
import ServiceKit
import ServiceKitTesting
import Testing
import Tracing

/// One trace per request, through the gateway: the spans reach a stand-in collector over OTLP/HTTP (in a
/// topology, the deployed stand-in every service sends its spans to).
@Suite("Traces through the gateway", .serialized)
struct TracingThroughGatewayTests {
    @Test(
        "a request the app traces is one trace: the gateway's span and its call upstream, the module's span, its internal call and the module that answered it, the event it published as sent and as applied by its consumer, parent to child; the answer names the trace",
        arguments: StackTests.stores)
    func oneTracePerRequest(store: TestStore) async throws {
        let collector = try await TestTracing.collector()
        try await StackTests.withStack(store: store) { gateway in
            let troll = try await gateway.register(name: "Traced Troll"), ann = try await gateway.register(name: "Traced Ann")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: ann.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "traced", clientMessageId: "traced-\(UUID().uuidString.prefix(8))"),
                token: troll.accessToken)

            // The report goes gateway → moderation, which asks chat how Ann sees the message.
            let (traceparent, traceID) = TestTracing.newTrace()
            let reported = try await gateway.call(
                ModerationAPI.report, body: ReportRequest(subject: .message(said.id), reason: .spam), token: ann.accessToken,
                headers: ["traceparent": traceparent])
            #expect(reported.status == 201)
            #expect(reported.header("traceresponse")?.split(separator: "-").dropFirst().first.map(String.init) == traceID)

            let spans = try await poll(within: .seconds(20)) {
                try await TestClient(baseURL: collector).raw(.GET, "/test/traces/\(traceID)").decode([String: [CollectedSpan]].self)[
                    "spans"]
                    ?? []
            } until: { spans in
                Set(spans.compactMap(\.module)).isSuperset(of: ["gateway", "moderation", "chat"])
                    && spans.contains { $0.name == "apply moderation.case.opened" && $0.module == "notify" }
                    && spans.contains { $0.name == "SQL transaction" && $0.module == "moderation" }
                    // A span is exported when it ends: the sending one ends after notify has answered.
                    && spans.contains { $0.name == "send moderation.case.opened" && $0.attributes["huddle.callee"] == .text("notify") }
            }
            let byID = Dictionary(spans.map { ($0.spanId, $0) }, uniquingKeysWith: { first, _ in first })
            func ancestors(of span: CollectedSpan) -> [CollectedSpan] {
                var chain: [CollectedSpan] = []
                var next = span.parentSpanId.flatMap { byID[$0] }
                while let parent = next, chain.count < 20 {
                    chain.append(parent)
                    next = parent.parentSpanId.flatMap { byID[$0] }
                }
                return chain
            }
            let gatewaySpan = try #require(spans.first { $0.module == "gateway" })
            #expect(gatewaySpan.name == "/v1/reports" && gatewaySpan.parentSpanId == traceparent.split(separator: "-")[2].description)
            let chatSpan = try #require(spans.first { $0.module == "chat" })
            #expect(chatSpan.name == "/internal/moderation/subjects/{type}/{id}")
            let chain = ancestors(of: chatSpan)
            // chat's span descends from moderation's internal call, which descends from moderation's span and then the gateway's.
            #expect(chain.contains { $0.name == "GET /internal/moderation/subjects/{type}/{id}" })
            #expect(chain.contains { $0.module == "moderation" && $0.name == "/v1/reports" })
            #expect(chain.contains { $0.spanId == gatewaySpan.spanId })
            #expect(spans.allSatisfy { $0.traceId == traceID })
            // The report and its case were written in one transaction, a child of moderation's span.
            let written = try #require(spans.first { $0.name == "SQL transaction" && $0.module == "moderation" })
            #expect(ancestors(of: written).contains { $0.module == "moderation" && $0.name == "/v1/reports" })

            // The case it opened is an event: moderation's outbox sends it, and notify applies it, in the same trace.
            let applied = try #require(spans.first { $0.name == "apply moderation.case.opened" && $0.module == "notify" })
            let eventChain = ancestors(of: applied)
            #expect(eventChain.first?.name == "send moderation.case.opened" && eventChain.first?.module == "moderation")
            #expect(eventChain.contains { $0.module == "moderation" && $0.name == "/v1/reports" })
            #expect(eventChain.contains { $0.spanId == gatewaySpan.spanId })

            // A problem names its trace beside the request id.
            let (failingParent, failingTrace) = TestTracing.newTrace()
            let missing = try await gateway.call(
                ModerationAPI.report, body: ReportRequest(subject: .message(ChatMessageID()), reason: .spam), token: ann.accessToken,
                headers: ["traceparent": failingParent])
            #expect(missing.status == 404 && missing.problem?.traceId == failingTrace && missing.header("X-Request-Id") != nil)
        }
    }

    @Test("a log line made inside a span carries its trace_id and span_id; one outside any span carries none", StackTests.embeddedOnly)
    func logLinesCarryTheTrace() async throws {
        _ = try await TestTracing.collector()
        let (traceparent, traceID) = TestTracing.newTrace()
        var fields = HTTPFields()
        fields[TraceContext.traceparent] = traceparent
        var parent = ServiceContext.topLevel
        TraceContext.extract(from: fields, into: &parent)
        let inside = withSpan("logging", context: parent) { _ in Logger.MetadataProvider.tracing.get() }
        #expect(inside["trace_id"] == .string(traceID) && inside["span_id"] != nil)
        #expect(Logger.MetadataProvider.tracing.get()["trace_id"] == nil)
    }

    @Test(
        "an app that traces through HuddleKit starts the trace on the phone: the gateway's span is a child of the app's, and a refusal gives the app its trace id",
        arguments: StackTests.stores)
    func traceStartsOnThePhone(store: TestStore) async throws {
        let collector = try await TestTracing.collector()
        try await StackTests.withStack(store: store) { gateway in
            let app = try await StackTests.player(gateway, "Traced App")
            let (traceparent, traceID) = TestTracing.newTrace()
            let refusal = await #expect(throws: HuddleError.self) {
                try await HuddleClient.$traceparent.withValue(traceparent) { try await app.send(CatalogAPI.team, TeamID()) }
            }
            #expect(refusal?.status == 404 && refusal?.traceID == traceID)
            let spans = try await poll(within: .seconds(20)) {
                try await TestClient(baseURL: collector).raw(.GET, "/test/traces/\(traceID)").decode([String: [CollectedSpan]].self)[
                    "spans"]
                    ?? []
            } until: { spans in
                spans.contains { $0.module == "gateway" } && spans.contains { $0.module == "catalog" }
            }
            let gatewaySpan = try #require(spans.first { $0.module == "gateway" })
            #expect(gatewaySpan.parentSpanId == traceparent.split(separator: "-")[2].description)
        }
    }

    @Test(
        "a live socket is a span of the device's trace at the gateway and at the module, and each frame the device sends is a span of its connect",
        arguments: StackTests.stores)
    func socketFramesAreSpansOfTheirConnect(store: TestStore) async throws {
        let collector = try await TestTracing.collector()
        try await StackTests.withStack(store: store) { gateway in
            let ann = try await gateway.register(name: "Traced Socket")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: ann.accessToken).items.first { $0.kind == .global })
            let (traceparent, traceID) = TestTracing.newTrace()
            let phone = try await ChatSocket.connect(
                baseURL: gateway.baseURL, path: ChatAPI.live.path(), token: ann.accessToken,
                headers: [TraceContext.traceparent: traceparent])
            try phone.send(ChatClientFrame.subscribe(global.id))
            #expect(try await phone.waitFor { $0.type == .subscribed })
            await phone.close()

            // The connect span ends when the socket closes: it is exported then.
            let spans = try await poll(within: .seconds(20)) {
                try await TestClient(baseURL: collector).raw(.GET, "/test/traces/\(traceID)").decode([String: [CollectedSpan]].self)[
                    "spans"]
                    ?? []
            } until: { spans in
                spans.contains { $0.name == "connect /v1/chat/live" } && spans.contains { $0.name == "receive subscribe" }
                    && spans.contains { $0.module == "gateway" }
            }
            let upgrade = try #require(spans.first { $0.module == "gateway" && $0.name == "live /v1/chat/live" })
            #expect(upgrade.parentSpanId == traceparent.split(separator: "-")[2].description)
            let connect = try #require(spans.first { $0.name == "connect /v1/chat/live" && $0.module == "chat" })
            let byID = Dictionary(spans.map { ($0.spanId, $0) }, uniquingKeysWith: { first, _ in first })
            var chain: [String] = []
            var next = connect.parentSpanId.flatMap { byID[$0] }
            while let parent = next, chain.count < 10 {
                chain.append(parent.spanId)
                next = parent.parentSpanId.flatMap { byID[$0] }
            }
            #expect(chain.contains(upgrade.spanId))
            let frame = try #require(spans.first { $0.name == "receive subscribe" })
            #expect(frame.parentSpanId == connect.spanId && frame.module == "chat")
        }
    }
}
