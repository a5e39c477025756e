import Contracts
import Foundation
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
}
