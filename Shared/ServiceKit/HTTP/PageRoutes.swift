public import Contracts
import Foundation
public import Hummingbird

/// What a page route answers: an HTML page with its status, or a 303 to another page, each with the
/// headers the page's owner adds (cookies, its Content-Security-Policy).
public struct PageAnswer: Sendable {
    public var status: Int
    public var html: String?
    public var headers: HTTPFields

    public static func page(_ page: HTMLPage, status: Int = 200, headers: HTTPFields = [:]) -> PageAnswer {
        PageAnswer(status: status, html: page.html, headers: headers)
    }

    public static func seeOther(_ location: String, headers: HTTPFields = [:]) -> PageAnswer {
        var headers = headers
        headers[.location] = location
        return PageAnswer(status: 303, html: nil, headers: headers)
    }

    func response() -> Response {
        var headers = headers
        guard let html else { return Response(status: .init(code: status), headers: headers) }
        headers[.contentType] = "text/html; charset=utf-8"
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

/// Registering HTML pages and the browser forms that post to them against their descriptions, as
/// `on(_:)` does for JSON operations: the query is checked, a form arrives decoded as the described
/// type with its constraints checked (422 naming the field otherwise), and the answer's status must
/// be one the description names.
extension RouterMethods where Context == HuddleRequestContext {
    @discardableResult
    public func page(
        _ endpoint: Endpoint<Anyone, NoBody, HTMLPage>,
        _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, context) }
    }

    @discardableResult
    public func form<Form: FormBody & Codable & Sendable>(
        _ endpoint: Endpoint<Anyone, Form, SeeOther>,
        _ handler: @escaping @Sendable (Form, Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in
            try await handler(try await request.decodeForm(Form.self, context: context), request, context)
        }
    }

    private func register(
        _ operation: APIOperation, _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            try QueryRules.check(request, against: operation)
            let answer = try await DescribedOperation.$current.withValue(operation) { try await handler(request, context) }
            precondition(
                answer.status == operation.successStatus || operation.otherAnswers[answer.status] != nil
                    || operation.allProblems.contains { $0.status == answer.status },
                "\(operation.name) does not describe a \(answer.status) answer")
            return answer.response()
        }
        return self
    }
}

extension Request {
    /// Decodes an `application/x-www-form-urlencoded` body, as a browser's form posts it, and checks
    /// it against the type's constraints the way a JSON body is checked.
    public func decodeForm<T: Codable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        let mediaType = headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw CommonError.malformedBody("The body must be a form (application/x-www-form-urlencoded).")
        }
        let text = String(buffer: try await collectBody(context: context))
        let form: T
        do {
            form = try URLEncodedFormDecoder().decode(T.self, from: text)
        } catch let error as DecodingError {
            throw Self.problem(for: error)
        } catch {
            throw CommonError.malformedBody("The form could not be read.")
        }
        let value = try HuddleJSON.decoder.decode(JSONValue.self, from: try HuddleJSON.encoder.encode(form))
        try BodySchemas.shared.check(value, as: T.self)
        return form
    }
}
