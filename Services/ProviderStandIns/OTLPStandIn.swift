import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat

/// The receiving end of an OpenTelemetry collector, as the stand-in plays it, so that `huddle` shows
/// its traces with no collector and tests can assert on them:
///
/// - `POST /v1/traces`: OTLP/HTTP in its JSON encoding (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`).
///   Span and trace ids are read as OTLP/JSON writes them (hex), or as protobuf's JSON mapping
///   writes bytes (base64). A protobuf body is refused with 415.
/// - `GET /test/traces/{traceId}` → `{spans: [{traceId, spanId, parentSpanId?, name, service, attributes}]}`,
///   in the order received.
///
/// The last `capacity` spans are kept.
final class OTLPStandIn: Sendable {
    struct Span: Codable, Sendable {
        var traceId: String
        var spanId: String
        var parentSpanId: String?
        var name: String
        var service: String
        var attributes: [String: AttributeValue]
    }

    private let spans = NIOLockedValueBox<[Span]>([])
    let capacity: Int

    init(capacity: Int = 50_000) { self.capacity = capacity }

    func add(to router: Router<BasicRequestContext>) {
        router.post("v1/traces") { request, context -> Response in
            let mediaType = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces)
            guard mediaType == "application/json" else {
                throw HTTPError(.unsupportedMediaType, message: "This collector takes OTLP/HTTP as JSON (http/json).")
            }
            let body = try await request.body.collect(upTo: 16 * 1024 * 1024)
            let export = try JSONDecoder().decode(ExportRequest.self, from: Data(buffer: body))
            self.receive(export)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: "{}")))
        }
        router.get("test/traces/:traceId") { _, context -> Response in
            let traceID = context.parameters.get("traceId")?.lowercased() ?? ""
            let found = self.spans.withLockedValue { $0.filter { $0.traceId == traceID } }
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(["spans": found]))))
        }
    }

    private func receive(_ export: ExportRequest) {
        var received: [Span] = []
        for resourceSpans in export.resourceSpans ?? [] {
            let service = resourceSpans.resource?.attributes?.first { $0.key == "service.name" }?.value?.plain.text ?? "unknown"
            for scope in resourceSpans.scopeSpans ?? [] {
                for span in scope.spans ?? [] {
                    guard let traceID = Self.hex(span.traceId), let spanID = Self.hex(span.spanId) else { continue }
                    received.append(
                        Span(
                            traceId: traceID, spanId: spanID, parentSpanId: Self.hex(span.parentSpanId), name: span.name ?? "",
                            service: service,
                            attributes: Dictionary(
                                (span.attributes ?? []).compactMap { pair in pair.value.map { (pair.key, $0.plain) } },
                                uniquingKeysWith: { first, _ in first })))
                }
            }
        }
        spans.withLockedValue { spans in
            spans += received
            if spans.count > capacity { spans.removeFirst(spans.count - capacity) }
        }
    }

    /// An id as lower-case hex, whether it came as hex (OTLP/JSON) or base64 (protobuf's JSON mapping of bytes).
    static func hex(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        let isHex = (text.count == 32 || text.count == 16) && text.allSatisfy(\.isHexDigit)
        if isHex { return text.lowercased() }
        guard let bytes = Data(base64Encoded: text), !bytes.allSatisfy({ $0 == 0 }) else { return nil }
        return bytes.map { String(format: "%02x", $0) }.joined()
    }

    // MARK: OTLP's JSON encoding (opentelemetry-proto, trace/v1), the fields read here

    struct ExportRequest: Decodable {
        var resourceSpans: [ResourceSpans]?
    }

    struct ResourceSpans: Decodable {
        var resource: Resource?
        var scopeSpans: [ScopeSpans]?
    }

    struct Resource: Decodable {
        var attributes: [KeyValue]?
    }

    struct ScopeSpans: Decodable {
        var spans: [OTLPSpan]?
    }

    struct OTLPSpan: Decodable {
        var traceId: String?
        var spanId: String?
        var parentSpanId: String?
        var name: String?
        var attributes: [KeyValue]?
    }

    struct KeyValue: Decodable {
        var key: String
        var value: AnyValue?
    }

    struct AnyValue: Decodable {
        var stringValue: String?
        var boolValue: Bool?
        /// int64 is a string in proto3's JSON mapping; some encoders write a number.
        var intValue: FlexibleInteger?
        var doubleValue: Double?

        var plain: AttributeValue {
            if let stringValue { return .text(stringValue) }
            if let boolValue { return .flag(boolValue) }
            if let intValue { return .integer(intValue.value) }
            if let doubleValue { return .number(doubleValue) }
            return .text("")
        }
    }

    struct FlexibleInteger: Decodable {
        var value: Int64
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
            } else {
                let text = try container.decode(String.self)
                guard let number = Int64(text) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an integer")
                }
                value = number
            }
        }
    }

    /// An attribute's value as the trace listing shows it: plain JSON.
    enum AttributeValue: Codable, Sendable, Equatable {
        case text(String), flag(Bool), integer(Int64), number(Double)

        var text: String? {
            if case .text(let value) = self { return value }
            return nil
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let value = try? container.decode(Bool.self) {
                self = .flag(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .integer(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .text(try container.decode(String.self))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let value): try container.encode(value)
            case .flag(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            }
        }
    }
}
