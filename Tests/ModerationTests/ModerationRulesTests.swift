import Contracts
import Foundation
import Testing

@testable import ModerationService

/// Moderation's pure rules, checked directly.
@Suite("Moderation rules")
struct ModerationRulesTests {
    @Test(
        "a removal hides a team, league or game; a message becomes a tombstone instead; any other decision shows again what reporters hid")
    func hiddenAfterDecisions() {
        for subject in [SubjectType.team, .league, .game] {
            #expect(Cases.hiddenAfter(.remove, subject: subject, wasHidden: false) == true)
            #expect(Cases.hiddenAfter(.dismiss, subject: subject, wasHidden: false) == nil)
        }
        #expect(Cases.hiddenAfter(.remove, subject: .message, wasHidden: true) == nil)
        #expect(Cases.hiddenAfter(.remove, subject: .user, wasHidden: false) == nil)
        #expect(Cases.hiddenAfter(.dismiss, subject: .message, wasHidden: true) == false)
        #expect(Cases.hiddenAfter(.warn, subject: .team, wasHidden: true) == false)
    }

    @Test("a decision whose fields do not fit together is told every one of them at once")
    func decisionProblemsAtOnce() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let warning = CaseActionRequest(action: .warn, reason: "", until: now.addingTimeInterval(60), removeMessages: true)
        #expect(Cases.problems(in: warning, reason: "", at: now).map(\.field) == ["reason", "until", "removeMessages"])
        let past = CaseActionRequest(action: .suspend, reason: "Spam", until: now.addingTimeInterval(-1))
        #expect(Cases.problems(in: past, reason: "Spam", at: now).map(\.field) == ["until"])
        let fine = CaseActionRequest(action: .suspend, reason: "Spam", until: now.addingTimeInterval(60), removeMessages: true)
        #expect(Cases.problems(in: fine, reason: "Spam", at: now).isEmpty)
    }

    @Test("an erased player's content loses its owner, name and words; another's is kept as it was")
    func erasingContent() {
        let player = UserID(), other = UserID()
        let said = SubjectContent(
            type: .message, id: SubjectID(UUID()), ownerId: player, ownerName: "Troll", text: "you all stink", at: nil)
        let erased = ModerationEvents.erasing(player, from: said)
        #expect(erased.ownerId == nil && erased.ownerName == nil && erased.text != said.text)
        #expect(ModerationEvents.erasing(other, from: said) == said)
    }

    @Test("console tokens are long and random, stored as their hash, and compared whole")
    func consoleTokens() {
        let token = ConsoleSessions.randomToken()
        #expect(token.count == 43 && token != ConsoleSessions.randomToken())
        #expect(ConsoleSessions.key(of: token) != token && ConsoleSessions.key(of: token).count == 64)
        #expect(ConsoleSessions.same(token, token))
        #expect(!ConsoleSessions.same(token, String(token.dropLast()) + "x"))
        #expect(!ConsoleSessions.same(token, String(token.dropLast())))
    }
}
