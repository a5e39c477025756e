public import Configuration
import Contracts
import Foundation
import HuddleEffects
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Instrumentation
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1
import Prometheus
import ServiceContextModule
public import ServiceHTTP
public import ServiceLifecycle
import Tracing

extension ModuleBuilder {
    /// The module as `huddle` and its own executable (`gateway`) run it.
    public static let gateway = ModuleBuilder(.gateway) { try await buildGateway(reader: $0, dependencies: $1) }
}

/// Builds the gateway: the only thing mobile clients talk to.
///
/// Configuration keys: `gateway.http.*`, each module's `<module>.url`, `GatewaySettings`' (`gateway.body.limit`,
/// `gateway.ratelimit.*`, `gateway.upstream.*`, `gateway.health.timeout.ms`, `gateway.modules`, `gateway.socket.*`,
/// `gateway.head.*`, `gateway.body.timeout.ms`, `gateway.connections.per.client`, `gateway.proxies.trusted`) and the operations listener's
/// `gateway.ops.http.*`.
public func buildGateway(reader: ConfigReader, dependencies: ServiceDependencies) async throws -> some Service {
    let settings = try GatewaySettings(reader: reader)
    let logger = dependencies.logger
    let directory = dependencies.directory
    let client = UpstreamClient(connectTimeout: settings.upstreamConnect, maximumAge: settings.upstreamAge)
    let routes = RouteTable.standard
    // One policy for every path a request takes: the same buckets, the same trusted proxies.
    let edge = EdgePolicy(
        limiter: RateLimiter(ratePerSecond: settings.ratePerSecond, burst: settings.burst, now: dependencies.effects.now),
        proxies: settings.proxies)
    let proxy = ProxyMiddleware(
        routes: routes, balancer: Balancer(directory: directory, now: dependencies.effects.now), client: client, edge: edge,
        bodyLimit: settings.bodyLimit, uploadLimit: settings.uploadLimit,
        timeout: settings.upstreamTimeout)
    let health = UpstreamHealth(modules: settings.watched, directory: directory, client: client, timeout: settings.healthTimeout)
    let sockets = settings.sockets

    let connections = ClientConnections(limit: settings.connectionsPerClient)
    let meter = RequestMeter()
    let relay = ModuleRelay.Settings(
        routes: routes, call: proxy.call, client: client, edge: edge, meter: meter,
        bodyLimit: settings.bodyLimit,
        timeout: settings.upstreamTimeout, idleTimeout: settings.idleTimeout, logger: logger)
    let router = Router(context: HuddleRequestContext.self)
    router.addMiddleware {
        ServerSpanMiddleware<HuddleRequestContext>(module: .gateway)
        RequestIDMiddleware()
        RequestMetricsMiddleware(meter: meter)
        proxy
    }
    router.get(RouterPath(GatewayAPI.health.operation.path.text)) { _, _ in
        let report = await health.report()
        return JSONResponse(GatewayHealth(status: report.status), status: report.status == "ok" ? .ok : .serviceUnavailable)
    }
    let document = ServedDocument.json
    router.get(RouterPath(GatewayAPI.openAPI.operation.path.text)) { _, _ in
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: document)))
    }
    router.answerWrongMethods()

    var app = Application(
        responder: router.huddleResponder(),
        server: HTTPServerBuilder { responder in
            LiveServerConnections(
                HeadGuardedChannel(
                    base: UpgradesNotMade(
                        RelayingUpgradeChannel(
                            responder: responder,
                            // Most requests are relayed below the router (`ModuleRelay`); the rest go on to it.
                            additionalChannelHandlers: { [ModuleRelay(relay)] },
                            decide: { head, channel, logger in
                                await upgrade(
                                    head, channel: channel, routes: routes, balancer: proxy.balancer, edge: edge,
                                    sockets: sockets, client: client, timeout: proxy.timeout, logger: logger)
                            }),
                        webSockets: true),
                    limits: settings.head, bodyLimit: settings.bodyLimit, bodyTimeout: settings.bodyTimeout, edge: edge,
                    connections: connections))
        },
        configuration: reader.serverConfiguration(for: .gateway),
        onServerRunning: dependencies.announce(.gateway), logger: logger)
    let readiness = Readiness()
    if settings.resolveInterval > .zero {
        let configured = Dictionary(
            uniqueKeysWithValues: ServiceModule.allCases.map { ($0, directory.instances(of: $0)) }.filter { !$0.1.isEmpty })
        app.addServices(InstanceResolver(configured: configured, directory: directory, interval: settings.resolveInterval, logger: logger))
    }
    app.addServices(client, operationsListener(reader: reader, health: health, readiness: readiness, dependencies: dependencies))
    return StagedShutdown(app, readiness: readiness, sockets: OpenSockets(module: .gateway), logger: logger)
}

/// What the people running the gateway read and strangers must not: which module is down
/// (`/health` with each upstream's state), `/metrics`, and the probes an orchestrator asks
/// (`/health/live`: the process answers; `/health/ready`: it has not begun shutting down — a module
/// that is down does not make the gateway unready), on a listener of its own
/// (`gateway.ops.http.host`, default 127.0.0.1; `gateway.ops.http.port`, default 9180, or 0 when the
/// gateway itself listens on port 0, as in tests) that a deployment keeps off its public network.
private func operationsListener(
    reader: ConfigReader, health: UpstreamHealth, readiness: Readiness, dependencies: ServiceDependencies
) -> some ApplicationProtocol {
    let router = Router(context: HuddleRequestContext.self)
    router.addMiddleware { RequestIDMiddleware() }
    router.get("/health") { _, _ in
        let report = await health.report()
        return JSONResponse(report, status: report.status == "ok" ? .ok : .serviceUnavailable)
    }
    router.get("/health/live") { _, _ in JSONResponse(GatewayHealth(status: "ok")) }
    router.get("/health/ready") { _, _ in
        JSONResponse(
            GatewayHealth(status: readiness.isDraining ? "degraded" : "ok"), status: readiness.isDraining ? .serviceUnavailable : .ok)
    }
    StandardRoutes<HuddleRequestContext>.addMetrics(dependencies.metrics, to: router)
    let publicPort = reader.listenAddress(for: ServiceModule.gateway.rawValue, defaultPort: ServiceModule.gateway.defaultPort).port
    let logger = dependencies.logger
    return Application(
        router: router, server: .http1WithoutUpgrades(),
        configuration: reader.serverConfiguration(for: "gateway.ops", defaultPort: publicPort == 0 ? 0 : 9180),
        onServerRunning: { channel in logger.info("gateway operations (/health, /metrics) on \(channel.localAddress?.description ?? "?")")
        },
        logger: logger)
}

/// Accepts a WebSocket upgrade only after the module behind the path accepted it too; a refused one
/// is answered as the module answers the same path over plain HTTP (its status and problem), before
/// anything is upgraded.
private func upgrade(
    _ head: HTTPRequest, channel: any Channel, routes: RouteTable, balancer: Balancer, edge: EdgePolicy,
    sockets: SocketRelay.Limits, client: UpstreamClient, timeout: Duration, logger: Logger
) async -> (HTTPFields, NIOLoopBound<SocketRelay>)? {
    let path = head.path ?? "/"
    let pathOnly = String(path.prefix { $0 != "?" })
    guard !RouteTable.isInternal(pathOnly), let module = routes.module(for: pathOnly) else {
        await UpgradeRefusal.refuse(CommonError.noSuchRoute.problem, on: channel)
        return nil
    }
    let (address, forwardedFor) = edge.client(peer: channel.remoteAddress?.ipAddress, fields: head.headerFields)
    if let limited = edge.refusal(of: address) {
        await UpgradeRefusal.refuse(limited.problem, headers: limited.headers, on: channel)
        return nil
    }
    var headers = HTTPFields()
    let offered = SocketToken.offered(in: head.headerFields)
    if let authorization = head.headerFields.value(of: .authorization) {
        headers[.authorization] = authorization
    } else if let token = offered.token {
        headers[.authorization] = "Bearer \(token)"
    }
    let requestID = EdgePolicy.requestID(fields: head.headerFields)
    headers[.requestID] = requestID
    headers[.forwardedFor] = forwardedFor
    // The upgrade is a span of the device's trace (or starts one), and the module's connect continues it.
    var parent = ServiceContext.topLevel
    TraceContext.extract(from: head.headerFields, into: &parent)
    let span = InstrumentationSystem.tracer.startAnySpan(
        "live \(routes.entry(for: pathOnly)?.route ?? pathOnly)", context: parent, ofKind: .server)
    span.attributes["huddle.module"] = ServiceModule.gateway.rawValue
    span.attributes["huddle.callee"] = module.rawValue
    defer { span.end() }
    TraceContext.inject(into: &headers, context: span.context)
    // An instance that cannot be reached is left for another, as for any request.
    var tried: Set<String> = []
    var opened: NIOLoopBound<SocketRelay>?
    while opened == nil, tried.count < balancer.attempts(for: module), let base = balancer.take(module, excluding: tried) {
        tried.insert(base)
        opened = await client.openSocket(
            path: path, headers: headers, base: base, for: channel, limits: sockets, deadline: .now() + TimeAmount(timeout))
        if opened != nil {
            balancer.finished(module, base, reached: true)
            break
        }
        let (problem, extra) = await refusal(of: path, headers: headers, module: module, base: base, client: client, timeout: timeout)
        let reached = problem.code != GatewayError.upstreamUnavailable(module).problem.code
        balancer.finished(module, base, reached: reached)
        if reached {
            await UpgradeRefusal.refuse(problem, headers: extra, on: channel)
            return nil
        }
    }
    guard let relay = opened else {
        await UpgradeRefusal.refuse(GatewayError.upstreamUnavailable(module).problem, on: channel)
        return nil
    }
    var answer: HTTPFields = [.requestID: requestID]
    if offered.protocolName { answer[.secWebSocketProtocol] = SocketToken.protocolName }
    return (answer, relay)
}

/// Why the module refused an upgrade: what it answers the same request as plain HTTP (401 with its
/// challenge, 404, 422, or 503 with `Retry-After` from an instance holding all the sockets it takes).
/// A module that would have taken it (its 426) failed in between: 502.
private func refusal(
    of path: String, headers: HTTPFields, module: ServiceModule, base: String, client: UpstreamClient, timeout: Duration
) async -> (Problem, HTTPFields) {
    let request = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: HTTPHeaders(headers))
    guard
        let answer = try? await client.send(
            request, body: nil, to: base, deadline: .now() + TimeAmount(timeout), on: client.loopForCaller()
        ).get()
    else {
        return (GatewayError.upstreamUnavailable(module).problem, [:])
    }
    var body = ByteBuffer()
    switch answer.body {
    case .whole(let whole): body = whole
    case .stream(let stream):
        do {
            for try await chunk in stream where body.readableBytes < 64 * 1024 { body.writeImmutableBuffer(chunk) }
        } catch {
            return (GatewayError.badUpstream(module).problem, [:])
        }
    }
    let status = answer.head.status.code
    guard (400..<500).contains(status) || status == 503, status != 426,
        let problem = try? HuddleJSON.decoder.decode(Problem.self, from: Data(body.readableBytesView))
    else { return (GatewayError.badUpstream(module).problem, [:]) }
    var passed: HTTPFields = [:]
    if let challenge = answer.head.headers.value(of: "WWW-Authenticate") { passed[.wwwAuthenticate] = challenge }
    if let retryAfter = answer.head.headers.value(of: "Retry-After") { passed[.retryAfter] = retryAfter }
    return (problem, passed)
}
