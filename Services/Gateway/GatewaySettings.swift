import Configuration
import Contracts
import Foundation
import NIOCore
import ServiceHTTP

/// The gateway's configuration, read once at start (besides `gateway.http.*`, `gateway.ops.http.*` and
/// each module's `<module>.url`).
struct GatewaySettings: Sendable {
    /// Largest request body in bytes.
    var bodyLimit: Int
    /// `gateway.upload.limit` (16 MiB): the body limit of the routes that carry an image's bytes
    /// (the all-in-one's uploads), streamed to media as they arrive.
    var uploadLimit: Int
    /// Per-client token bucket.
    var ratePerSecond: Double
    var burst: Double
    /// Time a module has to answer, and to be connected to.
    var upstreamTimeout: Duration
    var upstreamConnect: Duration
    /// Age at which a connection to a module is closed (at once if idle, else when it comes free).
    var upstreamAge: Duration
    /// Time each module has to answer `/health` for the gateway's, and which modules it reports.
    var healthTimeout: Duration
    var watched: [ServiceModule]
    /// Frames from a module that may wait for a device on a live socket once its connection is full (a
    /// device that falls that far behind is disconnected, and its app resumes), how long such a device
    /// has to take what waits before its connection is reset (one that stopped reading would otherwise
    /// hold it for ever), and how often devices are pinged.
    var sockets: SocketRelay.Limits
    var head: RequestHeadLimits
    /// How long a request's body may take once its head is in (408 and close after).
    var bodyTimeout: TimeAmount
    /// How many connections one client address may hold open at once.
    var connectionsPerClient: Int
    /// The proxies whose word on the client's address is taken.
    var proxies: TrustedProxies
    /// How often each module's address is resolved again into its instances (0: never).
    var resolveInterval: Duration
    /// How long a client's connection may sit with nothing asked and nothing owed before it is closed
    /// (nil: never).
    var idleTimeout: TimeAmount?

    /// Keys: `gateway.body.limit` (default 1048576), `gateway.ratelimit.rate` and `.burst` (50/s, 100),
    /// `gateway.upstream.timeout.ms` (10000), `gateway.upstream.connect.ms` (500), `gateway.upstream.age.ms` (30000:
    /// connections to modules are opened anew at least this often, so new instances get traffic, and
    /// none is kept idle longer), `gateway.health.timeout.ms`
    /// (1000), `gateway.modules` (default all but the gateway), `gateway.socket.buffer` (1000),
    /// `gateway.socket.drain.ms` (10000), `gateway.socket.ping.ms` (30000), `gateway.head.line.limit` (8192: a longer request line is answered
    /// 414), `gateway.head.limit` (32768: a longer head, 431), `gateway.head.timeout.ms` (10000: a head not
    /// whole by then from its first byte, or from the connection's opening for the first, 408),
    /// `gateway.body.timeout.ms` (30000: a body not whole by then from its head, 408, connection closed),
    /// `gateway.connections.per.client` (512: connections one address may hold open; the next is 429 and
    /// closed — high enough for the phones behind one carrier-grade NAT, low enough that one address
    /// cannot take the process's descriptors; a trusted proxy is not limited), `gateway.proxies.trusted`
    /// (CIDRs, comma-separated, none by default: peers whose `X-Forwarded-For` or `Forwarded` names the
    /// client, for the limits and for the address passed on to the modules), `gateway.upstream.resolve.ms` (5000: how often a module's address, e.g. a headless Service's
    /// name, is resolved again into the instances the balancer spreads requests over; 0 never),
    /// `gateway.idle.timeout.ms` (620000: a client's connection with no request under way for that long
    /// is closed; longer than the 600 s a cloud load balancer keeps its own idle connections to the
    /// gateway, which must not find them closed under a request; 0 never).
    init(reader: ConfigReader) throws {
        bodyLimit = reader.integer("gateway.body.limit", default: 1 << 20)
        uploadLimit = reader.integer("gateway.upload.limit", default: 16 << 20)
        ratePerSecond = Double(reader.integer("gateway.ratelimit.rate", default: 50))
        burst = Double(reader.integer("gateway.ratelimit.burst", default: 100))
        upstreamTimeout = reader.milliseconds("gateway.upstream.timeout.ms", default: 10_000)
        upstreamConnect = reader.milliseconds("gateway.upstream.connect.ms", default: 500)
        upstreamAge = max(.milliseconds(1), reader.milliseconds("gateway.upstream.age.ms", default: 30_000))
        healthTimeout = reader.milliseconds("gateway.health.timeout.ms", default: 1000)
        watched =
            try reader.string(forKey: "gateway.modules").map(ServiceModule.parseList) ?? ServiceModule.allCases.filter { $0 != .gateway }
        sockets = SocketRelay.Limits(
            buffer: max(1, reader.integer("gateway.socket.buffer", default: 1000)),
            drain: TimeAmount(max(.milliseconds(1), reader.milliseconds("gateway.socket.drain.ms", default: 10_000))),
            ping: TimeAmount(max(.milliseconds(10), reader.milliseconds("gateway.socket.ping.ms", default: 30_000))))
        head = RequestHeadLimits(
            requestLine: reader.integer("gateway.head.line.limit", default: 8192),
            head: reader.integer("gateway.head.limit", default: 32768),
            timeout: TimeAmount(reader.milliseconds("gateway.head.timeout.ms", default: 10_000)))
        bodyTimeout = TimeAmount(max(.milliseconds(1), reader.milliseconds("gateway.body.timeout.ms", default: 30_000)))
        connectionsPerClient = max(1, reader.integer("gateway.connections.per.client", default: 512))
        let trusted = reader.text("gateway.proxies.trusted", default: "")
        guard let proxies = TrustedProxies(trusted) else {
            throw MissingConfiguration(key: "gateway.proxies.trusted", hint: "'\(trusted)' is not a comma-separated list of CIDRs")
        }
        self.proxies = proxies
        resolveInterval = reader.milliseconds("gateway.upstream.resolve.ms", default: 5000)
        let idle = reader.milliseconds("gateway.idle.timeout.ms", default: 620_000)
        idleTimeout = idle > .zero ? TimeAmount(idle) : nil
    }
}
