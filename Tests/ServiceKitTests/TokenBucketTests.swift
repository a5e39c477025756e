import Foundation
import ServiceHTTP
import Testing

@Suite("The token bucket every limit uses")
struct TokenBucketTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("A full bucket takes its burst at once, then one per interval, and says how long to wait")
    func burstThenRate() {
        var bucket = TokenBucket(capacity: 3, interval: 2, at: start)
        for _ in 0..<3 { #expect(bucket.take(at: start) == nil) }
        #expect(bucket.take(at: start) == 2)
        #expect(bucket.take(at: start.addingTimeInterval(0.5)) == 1.5)
        #expect(bucket.take(at: start.addingTimeInterval(2)) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(2)) == 2)
    }

    @Test("A refused take costs nothing, a long pause refills only to capacity")
    func refill() {
        var bucket = TokenBucket(capacity: 2, interval: 1, at: start)
        _ = bucket.take(at: start)
        _ = bucket.take(at: start)
        #expect(bucket.take(at: start) == 1)
        #expect(bucket.take(at: start) == 1)
        #expect(bucket.take(at: start.addingTimeInterval(3600)) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(3600)) == nil)
        #expect(bucket.take(at: start.addingTimeInterval(3600)) == 1)
    }
}
