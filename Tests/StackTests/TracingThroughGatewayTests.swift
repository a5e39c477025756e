import Contracts
import Foundation
import HTTPTypes
import HuddleKit
import Logging
import NIOHTTP1
import ProviderStandIns
import ServerContracts
import ServiceContextModule
import ServiceHTTP
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
        _ = try await TestTracing.collector()  // tracing is on before the stack starts
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

            let spans = try await CollectedTrace.polled(traceID) { spans in
                Set(spans.compactMap(\.module)).isSuperset(of: ["gateway", "moderation", "chat"])
                    && spans.contains { $0.name == "apply moderation.case.opened" && $0.module == "notify" }
                    && spans.contains { $0.name == "SQL transaction" && $0.module == "moderation" }
                    // A span is exported when it ends: the sending one ends after notify has answered.
                    && spans.contains { $0.name == "send moderation.case.opened" && $0.attributes["huddle.callee"] == .text("notify") }
                    // With two instances an event may be sent twice: every applying span's sender is in too.
                    && spans.filter { $0.name == "apply moderation.case.opened" }.allSatisfy { applied in
                        spans.contains { $0.spanId == applied.parentSpanId }
                    }
            }
            let gatewaySpan = try #require(spans.first { $0.module == "gateway" })
            #expect(
                gatewaySpan.name == ModerationAPI.report.operation.path.text
                    && gatewaySpan.parentSpanId == traceparent.split(separator: "-")[2].description)
            let chatSpan = try #require(spans.first { $0.module == "chat" })
            #expect(chatSpan.name == "/internal/moderation/subjects/{type}/{id}")
            let chain = spans.ancestors(of: chatSpan)
            // chat's span descends from moderation's internal call, which descends from moderation's span and then the gateway's.
            #expect(chain.contains { $0.name == "GET /internal/moderation/subjects/{type}/{id}" })
            #expect(chain.contains { $0.module == "moderation" && $0.name == ModerationAPI.report.operation.path.text })
            #expect(chain.contains { $0.spanId == gatewaySpan.spanId })
            #expect(spans.allSatisfy { $0.traceId == traceID })
            // The report and its case were written in one transaction, a child of moderation's span.
            let written = try #require(spans.first { $0.name == "SQL transaction" && $0.module == "moderation" })
            #expect(
                spans.ancestors(of: written).contains { $0.module == "moderation" && $0.name == ModerationAPI.report.operation.path.text })

            // The case it opened is an event: moderation's outbox sends it, and notify applies it, in the same trace.
            let applied = try #require(spans.first { $0.name == "apply moderation.case.opened" && $0.module == "notify" })
            let eventChain = spans.ancestors(of: applied)
            #expect(eventChain.first?.name == "send moderation.case.opened" && eventChain.first?.module == "moderation")
            #expect(eventChain.contains { $0.module == "moderation" && $0.name == ModerationAPI.report.operation.path.text })
            #expect(eventChain.contains { $0.spanId == gatewaySpan.spanId })

            // A problem names its trace beside the request id.
            let (failingParent, failingTrace) = TestTracing.newTrace()
            let missing = try await gateway.call(
                ModerationAPI.report, body: ReportRequest(subject: .message(ChatMessageID()), reason: .spam), token: ann.accessToken,
                headers: ["traceparent": failingParent])
            #expect(missing.status == 404 && missing.problem?.traceId == failingTrace && missing.header("X-Request-Id") != nil)
        }
    }

    @Test(
        "a ticket placed through the gateway is one trace: the gateway's span, betting's, the ledger's statement, the outbox sending its event, and notify's and chat's handling of it, parent to child",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func aTicketIsOneTrace(store: TestStore) async throws {
        _ = try await TestTracing.collector()  // tracing is on before the stack starts
        try await StackTests.withFootballStack(
            store: store, config: StackTests.bettingOnTheFeed,
            body: { gateway, feed in
                let kickoff = Date().addingTimeInterval(1800)
                _ = try await feed.schedule(
                    .init(home: "Traced", away: "Town", kickoff: kickoff, odds: .init(home: "1.80", draw: "3.50", away: "4.20")))
                let punter = try await gateway.register(name: "Traced Punter")
                let fixture = try #require(
                    try await poll {
                        try await gateway.value(
                            BettingAPI.fixtures, query: BettingAPI.fixturesDay(CalendarDay(containing: kickoff)), token: punter.accessToken
                        ).items.first { $0.home.name == "Traced" && $0.odds != nil && $0.open }
                    } until: {
                        $0 != nil
                    })
                let (traceparent, traceID) = TestTracing.newTrace()
                let placed = try await gateway.call(
                    BettingAPI.placeTicket,
                    body: PlaceTicket(
                        stake: 100, selections: [TicketPick(fixtureId: fixture.id, pick: .home, odds: fixture.odds![.home])], share: true),
                    token: punter.accessToken,
                    headers: [Routes.Header.idempotencyKey: UUID().uuidString, "traceparent": traceparent])
                #expect(placed.status == 201)

                let spans = try await CollectedTrace.polled(traceID) { spans in
                    ["notify", "chat"].allSatisfy { consumer in
                        spans.contains { $0.name == "apply betting.ticket.placed" && $0.module == consumer }
                            && spans.contains {
                                $0.name == "send betting.ticket.placed" && $0.attributes["huddle.callee"] == .text(consumer)
                            }
                    }
                }
                let gatewaySpan = try #require(
                    spans.first { $0.module == "gateway" && $0.name == BettingAPI.placeTicket.operation.path.text })
                #expect(gatewaySpan.parentSpanId == traceparent.split(separator: "-")[2].description)
                let bettingSpan = try #require(
                    spans.first { $0.module == "betting" && $0.name == BettingAPI.placeTicket.operation.path.text })
                #expect(spans.ancestors(of: bettingSpan).contains { $0.spanId == gatewaySpan.spanId })
                // The ticket, its stake's transfer and its event: one statement on PostgreSQL, one transaction on SQLite.
                let ledger = try #require(spans.first { $0.module == "betting" && $0.name.hasPrefix("SQL ") })
                #expect(spans.ancestors(of: ledger).contains { $0.spanId == bettingSpan.spanId })
                for consumer in ["notify", "chat"] {
                    let applied = try #require(spans.first { $0.name == "apply betting.ticket.placed" && $0.module == consumer })
                    let chain = spans.ancestors(of: applied)
                    #expect(chain.first?.name == "send betting.ticket.placed" && chain.first?.module == "betting")
                    #expect(chain.contains { $0.spanId == bettingSpan.spanId } && chain.contains { $0.spanId == gatewaySpan.spanId })
                }
                #expect(spans.allSatisfy { $0.traceId == traceID })

                // A ticket refused for odds that moved names its trace too, beside the odds as they are.
                let (staleParent, staleTrace) = TestTracing.newTrace()
                let seenLong = try #require(Odds("9.99"))
                let stale = try await gateway.call(
                    BettingAPI.placeTicket,
                    body: PlaceTicket(stake: 100, selections: [TicketPick(fixtureId: fixture.id, pick: .home, odds: seenLong)]),
                    token: punter.accessToken, headers: [Routes.Header.idempotencyKey: UUID().uuidString, "traceparent": staleParent])
                let changed = try stale.decode(OddsChanged.self)
                #expect(stale.status == 409 && changed.code == "ODDS_CHANGED" && changed.traceId == staleTrace)
            })
    }

    @Test(
        "a push a request caused is sent in its trace: the event applied by notify, the push from the queue, and the call to APNs, parent to child",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func aPushEndsTheTraceAtAPNs(store: TestStore) async throws {
        _ = try await TestTracing.collector()  // tracing is on before the stack starts
        try await withPushStandIns { pushSettings, _, _ in
            var config = ["notify.push.poll.ms": "20"]
            config.merge(pushSettings) { _, new in new }
            try await StackTests.withStack(store: store, config: config) { gateway in
                let ana = try await StackTests.player(gateway, "Traced Ana"), ben = try await StackTests.player(gateway, "Traced Ben")
                _ = try await ben.registerForPush(apnsToken: Data((0..<32).map { _ in UInt8.random(in: 0...255) }), environment: .sandbox)
                let bensID = try await ben.send(AuthAPI.me).id
                let (traceparent, traceID) = TestTracing.newTrace()
                try await HuddleClient.$traceparent.withValue(traceparent) { _ = try await ana.send(AuthAPI.follow, bensID) }

                let spans = try await CollectedTrace.polled(traceID) { spans in
                    spans.contains { $0.name == "push apns" } && spans.contains { $0.name == "APNs push" }
                }
                let apns = try #require(spans.first { $0.name == "APNs push" })
                let push = try #require(spans.parent(of: apns))
                #expect(push.name == "push apns" && push.module == "notify")
                let applied = try #require(spans.parent(of: push))
                #expect(applied.name == "apply \(AuthEvent.followed.name)" && applied.module == "notify")
                #expect(spans.contains { $0.module == "gateway" } && spans.allSatisfy { $0.traceId == traceID })
            }
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
        _ = try await TestTracing.collector()  // tracing is on before the stack starts
        try await StackTests.withStack(store: store) { gateway in
            let app = try await StackTests.player(gateway, "Traced App")
            let (traceparent, traceID) = TestTracing.newTrace()
            let refusal = await #expect(throws: HuddleError.self) {
                try await HuddleClient.$traceparent.withValue(traceparent) { try await app.send(CatalogAPI.team, TeamID()) }
            }
            #expect(refusal?.status == 404 && refusal?.traceID == traceID)
            let spans = try await CollectedTrace.polled(traceID) { spans in
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
        _ = try await TestTracing.collector()  // tracing is on before the stack starts
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
            let spans = try await CollectedTrace.polled(traceID) { spans in
                spans.contains { $0.name == "connect /v1/chat/live" } && spans.contains { $0.name == "receive subscribe" }
                    && spans.contains { $0.module == "gateway" }
            }
            let upgrade = try #require(spans.first { $0.module == "gateway" && $0.name == "live /v1/chat/live" })
            #expect(upgrade.parentSpanId == traceparent.split(separator: "-")[2].description)
            let connect = try #require(spans.first { $0.name == "connect /v1/chat/live" && $0.module == "chat" })
            let chain = spans.ancestors(of: connect).map(\.spanId)
            #expect(chain.contains(upgrade.spanId))
            let frame = try #require(spans.first { $0.name == "receive subscribe" })
            #expect(frame.parentSpanId == connect.spanId && frame.module == "chat")
        }
    }
}
