import Contracts
public import Foundation
public import Hummingbird

/// A JSON response in Huddle's JSON dialect. Lets handlers return wire types from Contracts
/// without those types knowing about Hummingbird.
public struct JSONResponse<Value: Encodable & Sendable>: ResponseGenerator {
    public var value: Value
    public var status: HTTPResponse.Status
    public var headers: HTTPFields

    public init(_ value: Value, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) {
        self.value = value
        self.status = status
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        let body = try HuddleJSON.encoder.encode(value)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

/// An answer of type `Value` that the handler wrote as JSON itself, exactly as `HuddleJSON` would
/// write it: for lists assembled from JSON documents stored whole (search's), which decoding and
/// encoding again would cost more than the rest of the request. Register its handler with
/// `on(_:encoded:)`.
public struct EncodedJSON<Value: Encodable & Sendable>: Sendable {
    public let bytes: Data

    public init(_ bytes: Data) { self.bytes = bytes }

    func response(status: HTTPResponse.Status) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// What an operation registered with `on(_:either:)` answers: its described output, or another
/// answer it describes, with that answer's status.
public enum Answer<Output: Encodable & Sendable>: Sendable {
    case described(Output)
    case other(any Encodable & Sendable, status: Int)
}
