import NIOCore
import NIOEmbedded
import Testing

@testable import Gateway

/// The one timer behind a deadline that moves every request, on an event loop whose clock the test
/// moves.
@Suite("A deadline that moves")
struct MovingDeadlineTests {
    @Test("it passes at the deadline it was moved to last, not at an earlier one it was moved from")
    func passesAtTheLatest() {
        let loop = EmbeddedEventLoop()
        var passed = 0
        let deadline = MovingDeadline(on: loop) { passed += 1 }
        deadline.move(to: loop.now + .seconds(10))
        loop.advanceTime(by: .seconds(4))
        deadline.move(to: loop.now + .seconds(10))  // due at 14 s
        loop.advanceTime(by: .seconds(7))  // 11 s: the first timer fired and found the deadline moved
        #expect(passed == 0)
        loop.advanceTime(by: .seconds(3))  // 14 s
        #expect(passed == 1)
        loop.advanceTime(by: .seconds(60))
        #expect(passed == 1)
    }

    @Test("moved earlier, it passes then; cleared or cancelled, it never does")
    func earlierClearedCancelled() {
        let loop = EmbeddedEventLoop()
        var passed = 0
        let deadline = MovingDeadline(on: loop) { passed += 1 }
        deadline.move(to: loop.now + .seconds(30))
        deadline.move(to: loop.now + .seconds(5))
        loop.advanceTime(by: .seconds(5))
        #expect(passed == 1)

        deadline.move(to: loop.now + .seconds(5))
        deadline.move(to: nil)
        loop.advanceTime(by: .seconds(60))
        #expect(passed == 1)

        deadline.move(to: loop.now + .seconds(5))
        deadline.cancel()
        loop.advanceTime(by: .seconds(60))
        #expect(passed == 1)
    }
}
