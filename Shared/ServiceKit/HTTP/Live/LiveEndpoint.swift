public import Contracts
public import Hummingbird
public import HummingbirdWebSocket
import Logging
import NIOConcurrencyHelpers
import ServiceContextModule
import Tracing

extension RouterMethods where Context == HuddleRequestContext {
    /// A live socket, registered once from its description (`traits: .webSocket`) on the
    /// service's router, behind the same middleware as every route (request id, metrics, the token).
    /// Every request is admitted first — signed in when the description says so, its query checked,
    /// then `admit` (what the caller may see) — so a WebSocket request that is refused gets the
    /// problem an HTTP request gets, and an HTTP request that would be admitted gets 426. An admitted
    /// upgrade opens a socket served by `serve` with what `admit` found.
    @discardableResult
    public func live<Access, Output, Admitted: Sendable>(
        _ endpoint: Endpoint<Access, NoBody, Output>,
        admit: @escaping @Sendable (Request, HuddleRequestContext) async throws -> Admitted,
        serve:
            @escaping @Sendable (Admitted, WebSocketInboundStream, WebSocketOutboundWriter, WebSocketRouterContext<HuddleRequestContext>)
            async throws -> Void
    ) -> Self {
        let operation = endpoint.operation
        precondition(operation.isWebSocket, "\(operation.name) is not described as a WebSocket")
        let described = DescribedHandling(operation)
        return ws(RouterPath(operation.path.text)) { request, context in
            let admitted = {
                if operation.access == .signedIn { _ = try AuthenticatedContext(context: context) }
                return try await described.run(request) { try await admit(request, context) }
            }
            guard request.isWebSocketUpgrade else {
                // As an upgrade would be answered now: a full instance says so (the gateway asks this to learn why).
                try OpenSockets.admitAnother()
                _ = try await admitted()
                throw CommonError.webSocketRequired
            }
            return await UpgradeRefusal.upgrade(request, on: context.channel) {
                try OpenSockets.admitAnother()
                let found = try await admitted()
                context.admission.withLockedValue { $0 = LiveAdmission(found: found, language: RequestLanguage.current) }
                // Kept only when recorded: the socket's span then lasts its life (below).
                if TraceContext.recording { context.upgradeTrace.withLockedValue { $0 = ServiceContext.current } }
            }
        } onUpgrade: { inbound, outbound, context in
            guard let admission = context.requestContext.admission.withLockedValue({ $0 }),
                let admitted = admission.found as? Admitted
            else { return }
            // The problems the socket's frames carry read in the upgrade's language. English is the
            // default, so most sockets hold no task-local value for it.
            let serve = { @Sendable (admitted: Admitted, inbound, outbound, context) in
                guard admission.language != .en else { return try await serve(admitted, inbound, outbound, context) }
                try await RequestLanguage.$current.withValue(admission.language) { try await serve(admitted, inbound, outbound, context) }
            }
            let channel = context.requestContext.channel
            // A live socket's connection is a link from the gateway, watched by keepalive.
            LiveSockets.watch(channel)
            let session = context.requestContext.identity?.sessionID
            do {
                // A recorded upgrade's socket is one span of its trace for its life; what a device sends
                // is traced inside it. Any other socket goes without: the span and the two task-local
                // values are held in the socket's task for as long as it is open, 3 KB of an idle chat
                // socket (`huddle-bench chat`, 10,000 sockets: 33.8 KB each with them).
                guard let parent = context.requestContext.upgradeTrace.withLockedValue({ $0 }) else {
                    try await LiveSockets.serve(channel, outbound: outbound, session: session) {
                        try await serve(admitted, inbound, outbound, context)
                    }
                    return
                }
                try await withSpan("connect \(operation.path.text)", context: parent, ofKind: .server) { span in
                    span.attributes["huddle.module"] = operation.owner.rawValue
                    try await TraceContext.$recording.withValue(span.isRecording) {
                        try await LiveSockets.serve(channel, outbound: outbound, session: session) {
                            try await serve(admitted, inbound, outbound, context)
                        }
                    }
                }
            } catch {
                context.logger.debug("\(operation.name) socket ended: \(error)")
            }
        }
    }
}

extension Request {
    /// Whether the request asks to become a WebSocket (`Upgrade: websocket`).
    var isWebSocketUpgrade: Bool {
        headers.value(of: .upgrade).map { $0.lowercased().contains("websocket") } ?? false
    }
}
