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
    private let cache = RequestMetricsCache()

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.activeRequests(request.method)
        active.increment()
        do {
            var response = try await next(request, context)
            let endpoint = RequestMetricsCache.Endpoint(
                route: context.endpointPath ?? "Unknown", method: request.method, status: response.status.code)
            let record: @Sendable () -> Void = { [cache] in
                let metrics = cache.metrics(endpoint)
                metrics.requests.increment()
                metrics.duration.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds - start))
                active.decrement()
            }
            if response.body.contentLength == nil {
                let body = response.body
                response.body = ResponseBody { writer in
                    defer { record() }
                    try await body.write(writer)
                }
            } else {
                record()
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let metrics = cache.metrics(.init(route: context.endpointPath ?? "NotFound", method: request.method, status: status.code))
            metrics.requests.increment()
            metrics.errors.increment()
            active.decrement()
            throw error
        }
    }
}

/// Metric handles by endpoint, made once: a factory lookup on every request costs more.
final class RequestMetricsCache: Sendable {
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

    func metrics(_ endpoint: Endpoint) -> Metrics {
        endpoints.withLock { cached in
            if let metrics = cached[endpoint] { return metrics }
            let metrics = Metrics(endpoint)
            cached[endpoint] = metrics
            return metrics
        }
    }

    func activeRequests(_ method: HTTPRequest.Method) -> Meter {
        methods.withLock { cached in
            if let meter = cached[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            cached[method] = meter
            return meter
        }
    }
}
