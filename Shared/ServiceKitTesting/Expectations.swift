public import Contracts
public import Foundation

/// Fails with the answer's status and body unless it has the expected status.
@discardableResult
public func expect(_ status: Int, _ response: TestClient.Response) throws -> TestClient.Response {
    guard response.status == status else { throw UnexpectedResponse(response: response, expected: status) }
    return response
}

/// Fails unless the answer is a problem with this status and code; returns the problem.
@discardableResult
public func expectProblem(_ status: Int, _ code: String, _ response: TestClient.Response) throws -> Problem {
    guard response.status == status, let problem = response.problem, problem.code == code else {
        throw UnexpectedResponse(response: response, expected: status)
    }
    return problem
}

public struct UnexpectedResponse: Error, CustomStringConvertible {
    public let response: TestClient.Response
    public let expected: Int?

    public init(response: TestClient.Response, expected: Int? = nil) {
        self.response = response
        self.expected = expected
    }

    public var description: String {
        "expected \(expected.map(String.init) ?? "success"), got \(response.status): \(response.text)"
    }
}

extension Date {
    /// Whole seconds, as times travel on the wire.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
