import Contracts
import ServiceFeatures
import Testing

/// The word filter: what it catches, what it leaves, and what each way of applying it answers.
@Suite("Word filter")
struct ContentFilterTests {
    let filter = ContentFilter(words: ContentFilterTests.words)
    static let words = ["fuck", "shit", "cunt", "Trollword"]

    @Test(
        "catches words in any case, with accents, digits for letters, and inflections",
        arguments: ["fuck off", "FUCKING hell", "what the f\u{00FC}ck", "sh1t", "$hit happens", "you trollwords", "a-cunt-b"])
    func catches(_ text: String) {
        #expect(filter.flags(text))
    }

    @Test(
        "leaves words that merely contain one, and clean text",
        arguments: ["Scunthorpe United", "Shinty club", "Sunday league", "", "   ", "mushroom pitch"])
    func leaves(_ text: String) {
        #expect(!filter.flags(text))
    }

    @Test("masking replaces each caught word by as many asterisks and keeps the rest")
    func masks() {
        #expect(filter.mask("well sh1t, Scunthorpe lost: fucking hell") == "well ****, Scunthorpe lost: ******* hell")
        #expect(filter.mask("clean text") == "clean text")
    }

    @Test("refusing answers 422 CONTENT_REFUSED naming the field")
    func refuses() throws {
        #expect(throws: Never.self) { try filter.refuse("Tallinn Spikers", field: "name") }
        let refused = #expect(throws: ContentRefused.self) { try filter.refuse("Shit Spikers", field: "name") }
        #expect(refused?.problem.code == "CONTENT_REFUSED" && refused?.problem.status == 422)
        #expect(refused?.problem.errors?.map(\.field) == ["name"])
    }

    @Test("the built-in list is on unless turned off, and configured words add to it")
    func builtIn() {
        #expect(ContentFilter(words: ContentFilter.builtIn).flags("bitch"))
        #expect(!ContentFilter(words: []).flags("bitch"))
    }
}
