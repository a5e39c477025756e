import Dispatch
public import Hummingbird
import Metrics
import Synchronization

/// Counts and times requests under the names Hummingbird's `MetricsMiddleware` uses
/// (`hb.requests`, `http.server.request.duration`, `hb.request.errors`,
/// `http.server.active_requests`), but leaves a buffered response as it is. Hummingbird's records
/// after the body is written by turning every body into a streamed one, so a small response went
/// out as two writes (head, then body): one more system call and packet on every response of
/// every service, and twice that on the gateway's path. A body of known length (buffered, in
/// practice) is timed up to its hand-over, which for a buffered one is when it is written; a
/// body of unknown length (a stream) is still timed to its end.
public struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let meter: RequestMeter

    /// `meter`: shared with whatever else answers this listener's requests (the gateway's relay).
    public init(meter: RequestMeter = RequestMeter()) { self.meter = meter }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let started = meter.started(request.method)
        do {
            var response = try await next(request, context)
            let (meter, route, method, status) = (meter, context.endpointPath ?? "Unknown", request.method, response.status.code)
            if response.body.contentLength == nil {
                let body = response.body
                response.body = ResponseBody { writer in
                    defer { meter.answered(started, route: route, method: method, status: status) }
                    try await body.write(writer)
                }
            } else {
                meter.answered(started, route: route, method: method, status: status)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            meter.failed(started, route: context.endpointPath ?? "NotFound", method: request.method, status: status.code)
            throw error
        }
    }
}

/// The request metrics of one listener, with their handles made once per endpoint: a factory lookup
/// on every request costs more.
public final class RequestMeter: Sendable {
    /// A request under way: counted active until it is answered or fails.
    public struct Started: Sendable {
        let active: Meter
        let at: UInt64
    }

    public init() {}

    public func started(_ method: HTTPRequest.Method) -> Started {
        let active = activeRequests(method)
        active.increment()
        return Started(active: active, at: DispatchTime.now().uptimeNanoseconds)
    }

    /// Answered with `status`: counted and timed under `route` (the endpoint's pattern).
    public func answered(_ started: Started, route: String, method: HTTPRequest.Method, status: Int) {
        let metrics = metrics(.init(route: route, method: method, status: status))
        metrics.requests.increment()
        metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - started.at))
        started.active.decrement()
    }

    /// Failed with `status`: counted, and counted as an error, not timed.
    public func failed(_ started: Started, route: String, method: HTTPRequest.Method, status: Int) {
        let metrics = metrics(.init(route: route, method: method, status: status))
        metrics.requests.increment()
        metrics.errors.increment()
        started.active.decrement()
    }

    struct Endpoint: Hashable {
        var route: String
        var method: HTTPRequest.Method
        var status: Int
    }

    struct Metrics: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter

        init(_ endpoint: Endpoint) {
            let dimensions = [
                ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                ("http.response.status_code", String(endpoint.status)),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions)
            duration = Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            errors = Counter(
                label: "hb.request.errors",
                dimensions: [
                    ("http.route", endpoint.route), ("http.request.method", endpoint.method.rawValue),
                    ("error.type", String(endpoint.status)),
                ])
        }
    }

    private let endpoints = Mutex<[Endpoint: Metrics]>([:])
    private let methods = Mutex<[HTTPRequest.Method: Meter]>([:])

    private func metrics(_ endpoint: Endpoint) -> Metrics {
        endpoints.withLock { cached in
            if let metrics = cached[endpoint] { return metrics }
            let metrics = Metrics(endpoint)
            cached[endpoint] = metrics
            return metrics
        }
    }

    private func activeRequests(_ method: HTTPRequest.Method) -> Meter {
        methods.withLock { cached in
            if let meter = cached[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            cached[method] = meter
            return meter
        }
    }
}
