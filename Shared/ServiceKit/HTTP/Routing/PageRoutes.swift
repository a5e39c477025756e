public import Contracts
import Foundation
public import Hummingbird
public import ServerContracts

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
        use handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in try await handler(request, context) }
    }

    @discardableResult
    public func form<Form: FormBody & Codable & Sendable>(
        _ endpoint: Endpoint<Anyone, Form, SeeOther>,
        use handler: @escaping @Sendable (Form, Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        register(endpoint.operation) { request, context in
            try await handler(try await request.decodeForm(Form.self, context: context), request, context)
        }
    }

    private func register(
        _ operation: APIOperation, _ handler: @escaping @Sendable (Request, HuddleRequestContext) async throws -> PageAnswer
    ) -> Self {
        let described = DescribedHandling(operation)
        on(RouterPath(operation.path.text), method: operation.method.httpMethod) { request, context -> Response in
            let answer = try await described.run(request) { try await handler(request, context) }
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
    /// it against the type's schema the way a JSON body is checked (422 naming each field that breaks
    /// it). Written here rather than with Hummingbird's `URLEncodedFormDecoder`, which refuses a form
    /// with a field it does not know or an empty name where a JSON body's unknown field is ignored.
    public func decodeForm<T: Codable>(_ type: T.Type, context: some RequestContext) async throws -> T {
        let mediaType = headers.value(of: .contentType)?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw CommonError.malformedBody("The body must be a form (application/x-www-form-urlencoded).")
        }
        let text = String(buffer: try await collectBody(context: context))
        var fields: [(name: String, value: String)] = []
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.formText(parts[0]), let value = Self.formText(parts.count > 1 ? parts[1] : "") else {
                throw CommonError.malformedBody("The form is not valid application/x-www-form-urlencoded.")
            }
            fields.append((name, value))
        }
        return try BodySchemas.shared.decode(T.self, from: BodySchemas.shared.formObject(fields, as: T.self))
    }

    /// A form's name or value: `+` for a space, then percent-decoded as UTF-8.
    private static func formText(_ encoded: Substring) -> String? {
        encoded.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
