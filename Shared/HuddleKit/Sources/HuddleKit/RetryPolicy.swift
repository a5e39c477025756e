/// How calls that are safe to repeat are retried: after no answer, 502/503/504 and 429, with
/// exponential backoff and full jitter, honouring `Retry-After` when the server sends it.
public struct RetryPolicy: Sendable {
    /// Attempts after the first.
    public var retries: Int
    public var baseDelay: Duration
    public var maxDelay: Duration

    public init(retries: Int = 3, baseDelay: Duration = .milliseconds(300), maxDelay: Duration = .seconds(10)) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    public static let standard = RetryPolicy()
    public static let never = RetryPolicy(retries: 0)

    static let retriedStatuses: Set<Int> = [429, 502, 503, 504]

    /// The wait before retry number `attempt` (1-based): the server's `Retry-After` seconds when
    /// given (capped at `maxDelay`), otherwise a random time up to base × 2^(attempt-1).
    func delay(beforeRetry attempt: Int, retryAfter: String?) -> Duration {
        if let seconds = retryAfter.flatMap(Int.init), seconds >= 0 { return min(.seconds(seconds), maxDelay) }
        let ceiling = min(baseDelay * (1 << min(attempt - 1, 20)), maxDelay)
        let ceilingMilliseconds = max(1, Int(ceiling.components.seconds * 1000 + ceiling.components.attoseconds / 1_000_000_000_000_000))
        return .milliseconds(Int.random(in: 0...ceilingMilliseconds))
    }
}
