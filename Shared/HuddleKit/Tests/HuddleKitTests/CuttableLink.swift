import Foundation
import HuddleKit

/// A proxy between a phone and the gateway that a test can cut: while cut, no request reaches the
/// server (the phone sees no answer, as in airplane mode); it can also let the next request through
/// and lose its answer on the way back, as a connection dropped mid-exchange does.
final class CuttableLink: HTTPTransport, @unchecked Sendable {
    private let upstream: any HTTPTransport
    private let lock = NSLock()
    private var cut = false
    private var answersToLose = 0
    private var counts = (sent: 0, refused: 0)

    init(upstream: any HTTPTransport = URLSessionTransport()) { self.upstream = upstream }

    func setCut(_ value: Bool) { lock.withLock { cut = value } }
    func loseNextAnswers(_ count: Int) { lock.withLock { answersToLose = count } }
    /// Requests that crossed the link, and those refused while it was cut.
    var traffic: (sent: Int, refused: Int) { lock.withLock { counts } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isCut = lock.withLock {
            if cut { counts.refused += 1 } else { counts.sent += 1 }
            return cut
        }
        if isCut { throw TransportFailure("the link is cut") }
        let response = try await upstream.send(request)
        let lose = lock.withLock {
            guard answersToLose > 0 else { return false }
            answersToLose -= 1
            return true
        }
        if lose { throw TransportFailure("the answer was lost on the way back") }
        return response
    }
}

/// A clock the test moves: ten minutes on a course pass in no time.
final class SimulatedClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
