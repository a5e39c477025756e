public import Contracts
public import Foundation
public import Hummingbird
import NIOFoundationCompat
public import ServerContracts

/// An image as a route answers it: its bytes, type and caching.
public struct FileAnswer: Sendable {
    public var data: Data
    public var contentType: String
    public var cacheControl: String

    public init(data: Data, contentType: String, cacheControl: String) {
        self.data = data
        self.contentType = contentType
        self.cacheControl = cacheControl
    }
}

/// Registering the routes that carry an image's bytes instead of JSON (`ImageBytes`) against their
/// descriptions, as `on(_:)` does for JSON: the query is checked first, a body is read up to
/// `limit` (413 beyond it) with a declared image type, and an answer carries its own type.
extension RouterMethods where Context == HuddleRequestContext {
    /// The media types an image body may be declared as.
    public static var imageTypes: Set<String> { Set(MediaContentType.allCases.map(\.rawValue)) }

    @discardableResult
    public func upload(
        _ endpoint: Endpoint<Anyone, ImageBytes, NoContent>, limit: Int,
        use handler: @escaping @Sendable (Data, Request, HuddleRequestContext) async throws -> Void
    ) -> Self {
        let operation = endpoint.operation, described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            try await described.run(request) {
                let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                guard let type, Self.imageTypes.contains(type) else {
                    throw CommonError.invalid("Content-Type", "must be one of \(Self.imageTypes.sorted().joined(separator: ", "))")
                }
                if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
                    throw CommonError.payloadTooLarge(limitBytes: limit)
                }
                let body: ByteBuffer
                do { body = try await request.body.collect(upTo: limit) } catch { throw CommonError.payloadTooLarge(limitBytes: limit) }
                try await handler(Data(buffer: body), request, context)
            }
            return Response(status: .noContent)
        }
        return self
    }

    @discardableResult
    public func file(
        _ endpoint: Endpoint<Anyone, NoBody, ImageBytes>,
        use handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> FileAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, context) }
    }

    @discardableResult
    public func file(
        _ endpoint: Endpoint<SignedIn, NoBody, ImageBytes>,
        use handler: @escaping @Sendable (Request, AuthenticatedContext) async throws -> FileAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, try AuthenticatedContext(context: context)) }
    }

    private func register(
        _ operation: APIOperation, _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> FileAnswer
    ) -> Self {
        let described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            if operation.access == .signedIn { _ = try AuthenticatedContext(context: context) }
            let answer = try await described.run(request) { try await handler(request, context) }
            return Response(
                status: .ok, headers: [.contentType: answer.contentType, .cacheControl: answer.cacheControl],
                body: .init(byteBuffer: ByteBuffer(data: answer.data)))
        }
        return self
    }
}
