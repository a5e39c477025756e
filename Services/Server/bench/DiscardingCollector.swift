import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceKitTesting

/// An OTLP/HTTP collector as the services see one on another machine: it takes each export
/// (`POST /v1/traces`, protobuf or JSON), answers 200 with an empty `ExportTraceServiceResponse`,
/// and keeps only how much it was sent. The stand-in's collector, which parses OTLP JSON to list
/// traces, took ~3 % of the two cores at 10 % sampling in perf: that is a collector's cost, not
/// the services', and a collector does not share their cores.
enum DiscardingCollector {
    static func with<T>(_ body: (_ url: String, _ received: @escaping @Sendable () -> (exports: Int, bytes: Int)) async throws -> T)
        async throws -> T
    {
        let received = NIOLockedValueBox((exports: 0, bytes: 0))
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            var bytes = 0
            for try await buffer in request.body { bytes += buffer.readableBytes }
            received.withLockedValue { $0 = ($0.exports + 1, $0.bytes + bytes) }
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        return try await withServerOnPort0({ onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: Logger(label: "collector"))
        }) { url in try await body(url, { received.withLockedValue { $0 } }) }
    }
}
