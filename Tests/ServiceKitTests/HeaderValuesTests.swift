import HTTPTypes
import NIOHTTP1
import ServiceHTTP
import Testing

/// Reading a header's value the same way from swift-http-types' fields and from NIO's HTTP/1 headers.
@Suite("Header values")
struct HeaderValuesTests {
    @Test("NIO's headers give a field's value in any case of its name, joined as HTTPFields join them")
    func sameAsHTTPFields() throws {
        let pairs = [
            ("X-Forwarded-For", "10.0.0.1"), ("Cookie", "a=1"), ("x-forwarded-for", "10.0.0.2"), ("COOKIE", "b=2"),
            ("X-Request-Id", "req-1"),
        ]
        let headers = HTTPHeaders(pairs)
        let fields = HTTPFields(pairs.map { HTTPField(name: HTTPField.Name($0.0)!, value: $0.1) })
        for name in ["x-forwarded-for", "Cookie", "X-REQUEST-ID", "x-missing"] {
            #expect(headers.value(of: name) == fields.value(of: HTTPField.Name(name)!), "\(name)")
        }
        #expect(headers.value(of: "X-Forwarded-For") == "10.0.0.1, 10.0.0.2")
        #expect(headers.value(of: "cookie") == "a=1; b=2")
        #expect(headers.value(of: "x-missing") == nil)
    }

    @Test("names compare equal but for the case of ASCII letters, and nothing else")
    func caseOfLettersOnly() {
        #expect("Content-Length".equalsIgnoringASCIICase("content-LENGTH"))
        #expect(!"Content-Length".equalsIgnoringASCIICase("Content-Lengths"))
        // `@` and a backquote differ only in the bit that makes letters lower case: they are not letters.
        #expect(!"a@".equalsIgnoringASCIICase("a`"))
        #expect(!"x[".equalsIgnoringASCIICase("x{"))
        #expect("".equalsIgnoringASCIICase(""))
    }
}
