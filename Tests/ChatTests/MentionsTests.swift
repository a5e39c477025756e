import Contracts
import Testing

@testable import ChatService

@Suite("Mentions")
struct MentionsTests {
    let names = ["nina": "Nina Tamm", "nin": "Nina", "ben": "Ben", "mari": "Mari-Liis Kask"]

    @Test("a whole name after @ is named, closing punctuation or not; a name running on into a word is not")
    func named() {
        #expect(Mentions.named(in: "@Nina Tamm, are you in?", among: names) == ["nina", "nin"])
        #expect(Mentions.named(in: "Thanks @Ben!", among: names) == ["ben"])
        #expect(Mentions.named(in: "@Mari-Liis Kask: kell 18?", among: names) == ["mari"])
        #expect(Mentions.named(in: "@Benjamin and @Nin", among: names).isEmpty)
        #expect(Mentions.named(in: "Ben without the sign", among: names).isEmpty)
        #expect(Mentions.named(in: "mail me at nina@example.com", among: names).isEmpty)
    }
}
