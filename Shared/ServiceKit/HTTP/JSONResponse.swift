import Contracts
import Foundation
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
