import Contracts
import Foundation
import Testing

@testable import NotifyService

/// The pace of a room's pushes: one at once, then one held to the end of the quiet interval that
/// tells of the rest.
@Suite("Chat push pacing")
struct ChatPushPacingTests {
    let pacing = ChatPushPacing(quiet: 10)
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("ten messages in ten seconds are two pushes: the first at once, the last nine held to the end of the interval as one")
    func aBurstIsTwoPushes() {
        var window: ChatPushPacing.Window?
        var decisions: [ChatPushPacing.Decision] = []
        for second in 0..<10 {
            let (decision, next) = pacing.next(window, at: start.addingTimeInterval(Double(second)))
            decisions.append(decision)
            window = next
        }
        let end = start.addingTimeInterval(10)
        #expect(decisions[0] == .pushNow)
        #expect(decisions[1] == .hold(until: end, new: true))
        #expect(decisions.dropFirst(2).allSatisfy { $0 == .hold(until: end, new: false) })
        #expect(window == ChatPushPacing.Window(nextAt: start.addingTimeInterval(20), heldUntil: end))
    }

    @Test("after the held push went, the next message is held to the interval after it; after a quiet spell, it goes at once")
    func thePaceResumes() {
        let (_, first) = pacing.next(nil, at: start)
        let (_, held) = pacing.next(first, at: start.addingTimeInterval(1))
        let (afterIt, _) = pacing.next(held, at: start.addingTimeInterval(12))
        #expect(afterIt == .hold(until: start.addingTimeInterval(20), new: true))
        let (quiet, _) = pacing.next(held, at: start.addingTimeInterval(25))
        #expect(quiet == .pushNow)
    }

    @Test("with no quiet interval every message is pushed")
    func noQuiet() {
        let pacing = ChatPushPacing(quiet: 0)
        let (_, window) = pacing.next(nil, at: start)
        #expect(pacing.next(window, at: start).0 == .pushNow)
    }

    @Test("a held push shows the latest message and how many more it stands for")
    func folded() {
        let text = NotificationText.Texts { _ in NotificationText.Text(title: "Chatty Chamois", body: "Mia: see you at 7") }
        #expect(NotificationText.folded(text, more: 0) == text)
        #expect(NotificationText.folded(text, more: 8).body == "Mia: see you at 7 (+8 more)")
    }
}
