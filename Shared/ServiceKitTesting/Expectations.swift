public import Contracts
public import Foundation
@_exported public import ServiceClients

/// Tests drive the API with the client the demo and the benchmarks use.
public typealias TestClient = APIClient

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

extension Date {
    /// Whole seconds, as times travel on the wire.
    public var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
