public import Contracts

/// Every failure HuddleKit reports: what the server answered (status, problem `code`, detail, field
/// errors) and the request id its logs carry, or why there was no answer.
public struct HuddleError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The server answered with a problem.
        case problem
        /// No answer, even after the retries a call allows.
        case unreachable
        /// The call needs a signed-in user and there is no session.
        case notSignedIn
        /// The session ended (its refresh was refused); sign in again.
        case sessionEnded
        /// An answer this version of HuddleKit cannot read.
        case unexpectedAnswer
        /// The transport cannot do this here: URLSession on Linux opens WebSockets only with a libcurl
        /// built with them; pass another `LiveTransport`.
        case unsupported
        /// What was waited for (a data export) was not ready within the time allowed.
        case timedOut
        /// A write that needs the server's answer there and then (a bet, a purchase, a deletion) was
        /// given to the queue of writes made offline (`HuddleClient.queue`).
        case onlineOnly
    }

    public let kind: Kind
    public let status: Int?
    public let problem: Problem?
    /// `X-Request-Id` of the exchange, for support to find the server's log line.
    public let requestID: String?

    public init(kind: Kind, status: Int? = nil, problem: Problem? = nil, requestID: String? = nil) {
        self.kind = kind
        self.status = status
        self.problem = problem
        self.requestID = requestID
    }

    /// The problem's `code` (`VALIDATION_FAILED`, `NOT_FOUND`, …), to branch on.
    public var code: String? { problem?.code }
    public var detail: String? { problem?.detail }
    public var fieldErrors: [Problem.FieldError] { problem?.errors ?? [] }
    /// The trace the failed call was part of, when the server recorded it: quote it with `requestID`.
    public var traceID: String? { problem?.traceId }

    public var description: String {
        let request = requestID.map { " (request \($0))" } ?? ""
        switch kind {
        case .problem: return "\(status ?? 0) \(code ?? "")\(detail.map { ": \($0)" } ?? "")\(request)"
        case .unreachable: return "Huddle did not answer\(request)"
        case .notSignedIn: return "not signed in"
        case .sessionEnded: return "the session ended; sign in again"
        case .unexpectedAnswer: return "an answer HuddleKit cannot read (status \(status ?? 0))\(request)"
        case .unsupported: return "this platform's URLSession cannot open the live socket; pass a LiveTransport"
        case .timedOut: return "not ready within the time allowed"
        case .onlineOnly: return "this write needs the server's answer at once and is not queued offline"
        }
    }
}

extension HuddleError {
    /// Whether the server answered with this problem code.
    public func `is`(_ code: ProblemCode) -> Bool { self.code == code.code }
}
