import Contracts
import Foundation
import NIOCore
import ServiceHTTP
import Testing

/// Every String Catalog Huddle reads (notify's pushes, auth's mails, the problems every module
/// answers) has each text in English, Estonian and Italian, with the English placeholders.
@Suite("Text catalogues")
struct TextCataloguesTests {
    static let files = [
        "Services/Notify/Resources/Notifications.xcstrings", "Services/Auth/Resources/Mails.xcstrings",
        "Shared/ServiceKit/HTTP/Resources/Problems.xcstrings",
    ]

    @Test("every text is translated, with the same placeholders", arguments: files)
    func translated(file: String) throws {
        let catalogue = TextCatalogue(contentsOf: URL(fileURLWithPath: file))
        #expect(!catalogue.isEmpty)
        #expect(catalogue.faults == [])
    }

    @Test("a missing translation or a placeholder lost in one is named")
    func faultsAreNamed() throws {
        let json = #"""
            {"sourceLanguage":"en","version":"1.0","strings":{
              "a":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"Hi %@"}},
                                    "et":{"stringUnit":{"state":"translated","value":"Tere"}},
                                    "it":{"stringUnit":{"state":"translated","value":"Ciao %@"}}}},
              "b":{"localizations":{"en":{"stringUnit":{"state":"translated","value":"Bye"}}}}}}
            """#
        let catalogue = try TextCatalogue(json: Data(json.utf8))
        #expect(
            catalogue.faults == [
                "a in et has other placeholders than in en", "b has no et text", "b has no it text",
            ])
        #expect(catalogue.text("a", .it, ["Ada"]) == "Ciao Ada" && catalogue.text("b", .et) == "Bye")
    }

    @Test("every problem code has its title in each language")
    func everyCodeTitled() throws {
        let source = try String(contentsOfFile: "Shared/HuddleKit/Sources/Contracts/API/ProblemCode.swift", encoding: .utf8)
        let codes = Set(source.matches(of: #/ProblemCode\(\d+, "([A-Z_]+)"\)/#).map { String($0.output.1) })
        #expect(codes.count > 50)
        for code in codes.sorted() { #expect(ProblemTexts.catalogue.has("title.\(code)"), "\(code)") }
    }

    /// Sources whose problems answer only other modules or an operator (internal calls, event
    /// delivery, a reindex), and the provider stand-ins and benchmarks, which are not Huddle's API.
    static let internalOnly = [
        "ProviderStandIns", "bench/", "HTTP/Internal/", "Store/Events/", "ServiceSkeleton.swift", "InternalReads.swift",
        "SearchError.swift",
    ]

    @Test("every problem text the server raises is in the catalogue")
    func everyRaisedTextCatalogued() throws {
        let raised = try ProblemTextSources.keys(
            under: ["Services", "Shared/ServiceKit", "Shared/ServiceClients"], skipping: Self.internalOnly)
        #expect(raised.count > 100)
        let missing = raised.filter { !ProblemTexts.catalogue.has($0.key) }.map { "\($0.place): \($0.key)" }
        #expect(Set(missing).sorted() == [])
    }

    @Test("a problem text's key is its English with %@ for each value, as the sources are read")
    func problemTextKeys() throws {
        let max = 5, name = "Ada"
        let text: ProblemText = "must hold at most \(max) ids, not \(name)'s 100%"
        #expect(text.format == "must hold at most %@ ids, not %@'s 100%%" && text.english == "must hold at most 5 ids, not Ada's 100%")
        let source = #"throw CommonError.invalid(path(a, "b"), "must hold at most \(Self.max(of: "x")) ids, not \(name)'s 100%")"#
        #expect(ProblemTextSources.keys(in: source) == [text.format])
        #expect(ProblemText(english: "is required").text(in: .et) == ProblemTexts.catalogue.text("is required", .et))
    }

    @Test("the messages Contracts' rules word in English read in the request's language")
    func contractRulesTranslated() throws {
        let messages = [
            TextRule(1...80).problem(""), TextRule(0...80).problem(String(repeating: "a", count: 81)),
            TextRule(3...80).problem("a"), TextRule(1...80).problem("a\u{7}"), WebAddressRule.picture.problem("ftp://x"),
            IdempotencyKey.problem.message, "must be one of: football, discGolf",
        ].compactMap { $0 }
        #expect(messages.count == 7)
        let problem = CommonError.validation(messages.enumerated().map { .init(field: "f\($0.offset)", message: $0.element) }).problem
        for language in [Language.et, .it] {
            let (_, body) = try RequestLanguage.$current.withValue(language) { try ProblemResponse.parts(problem, traceID: nil) }
            let read = try JSONDecoder().decode(Problem.self, from: Data(body.readableBytesView))
            let untranslated = zip(messages, read.errors ?? []).filter { $0.0 == $0.1.message }.map(\.0)
            #expect(untranslated == [], "\(language)")
        }
    }
}
