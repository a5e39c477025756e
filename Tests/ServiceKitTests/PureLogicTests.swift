import Contracts
import Foundation
import HTTPTypes
import HuddleEffects
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import AuthService
@testable import Gateway

@Suite("Pure rules")
struct PureLogicTests {
    @Test("the route table sends each prefix to its module, specific patterns first")
    func routes() {
        let table = RouteTable.standard
        #expect(table.module(for: "/v1/auth/login") == .auth)
        #expect(table.module(for: "/v1/users/me") == .auth)
        #expect(table.module(for: "/v1/users/123/stats") == .games)
        #expect(table.module(for: "/v1/users/123/follow") == .auth)
        #expect(table.module(for: "/v1/teams") == .catalog)
        #expect(table.module(for: "/v1/rounds/1/live") == .games)
        #expect(table.module(for: "/v1/teamsx") == nil)
        #expect(table.module(for: "/.well-known/jwks.json") == .auth)
        #expect(RouteTable.isInternal("/Internal/x"))
        #expect(!RouteTable.isInternal("/v1/internal"))
        #expect(RouteTable.isInternal("//internal"))
        #expect(RouteTable.isInternal("/INTERNAL"))
        #expect(!RouteTable.isInternal("/internals/x"))
        #expect(!RouteTable.isInternal("/intern"))
        #expect(!RouteTable.isInternal("/"))
    }

    @Test("a problem raised from a bare status has a code, its reason phrase or the status where there is none")
    func statusProblems() {
        // Each once went out with an empty code and the title "Error".
        #expect(CommonError.http(status: 404, message: nil).problem.code == "NOT_FOUND")
        #expect(CommonError.http(status: 404, message: nil).problem.title == "Not Found")
        #expect(CommonError.http(status: 413, message: nil).problem.code == ProblemCode.payloadTooLarge.code)
        #expect(CommonError.http(status: 499, message: nil).problem.code == "HTTP_499")
        #expect(CommonError.webSocketRequired.problem.code == ProblemCode.webSocketRequired.code)
    }

    @Test("the token bucket allows a burst, then one request per refill")
    func tokenBucket() {
        let limiter = RateLimiter(ratePerSecond: 2, burst: 3, now: Effects.unexpected.now)
        #expect((0..<3).map { _ in limiter.check(client: "a", at: Date(timeIntervalSince1970: 100)) } == [nil, nil, nil])
        #expect(limiter.check(client: "a", at: Date(timeIntervalSince1970: 100)) == 1)
        #expect(limiter.check(client: "b", at: Date(timeIntervalSince1970: 100)) == nil)
        #expect(limiter.check(client: "a", at: Date(timeIntervalSince1970: 100.5)) == nil)
        #expect(limiter.check(client: "a", at: Date(timeIntervalSince1970: 100.5)) == 1)
    }

    @Test("sign-in waits double with each failure from one address, after three, up to 15 minutes")
    func throttlePerClient() {
        let throttle = LoginThrottle()
        let now = Date(timeIntervalSince1970: 10_000)
        func mine(_ secondsAgo: Double...) -> [LoginThrottle.Failure] {
            secondsAgo.map { .init(at: now.addingTimeInterval(-$0), fromThisClient: true) }
        }
        #expect(throttle.retryAfter(failures: mine(0, 0), now: now) == nil)
        #expect(throttle.retryAfter(failures: mine(0, 0, 0), now: now) == 1)
        #expect(throttle.retryAfter(failures: mine(0, 0, 0, 0, 0), now: now) == 4)
        // Measured from the latest failure: 4 s after it, a wait of 4 s is over.
        #expect(throttle.retryAfter(failures: mine(4, 5, 6, 7, 8), now: now) == nil)
        #expect(throttle.retryAfter(failures: mine(1, 5, 6, 7, 8), now: now) == 3)
        // Capped at 15 minutes, and only failures inside the window count.
        #expect(throttle.retryAfter(failures: mine(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14), now: now) == 900)
        #expect(throttle.retryAfter(failures: mine(0, 0, 901), now: now) == nil)
    }

    @Test("failures from other addresses slow an account only a little: a stranger cannot lock its owner out")
    func throttleAcrossClients() {
        let throttle = LoginThrottle()
        let now = Date(timeIntervalSince1970: 10_000)
        let strangers = (0..<200).map { LoginThrottle.Failure(at: now.addingTimeInterval(-Double($0) / 10), fromThisClient: false) }
        #expect(throttle.retryAfter(failures: Array(strangers.prefix(9)), now: now) == nil)
        #expect(throttle.retryAfter(failures: Array(strangers.prefix(10)), now: now) == 1)
        #expect(throttle.retryAfter(failures: strangers, now: now) == 60)
        #expect(throttle.retryAfter(failures: strangers, now: now.addingTimeInterval(61)) == nil)
    }

    @Test("passwords are bcrypt-hashed at the configured cost with a salt")
    func bcrypt() async throws {
        let hasher = try await PasswordHasher(cost: 12)
        let first = try await hasher.hash("correct horse battery")
        let second = try await hasher.hash("correct horse battery")
        #expect(first.hasPrefix("$2b$12$"))
        #expect(first != second)
        #expect(try await hasher.verify("correct horse battery", against: first))
        #expect(try await !hasher.verify("wrong horse battery", against: first))
        #expect(try await !hasher.verify("anything", against: nil))
    }

    @Test("random ids are version 4 UUIDs that never repeat")
    func randomUUIDs() {
        let ids = (0..<10_000).map { _ in UUID.random().lowercasedString }
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.dropFirst(14).first == "4" && ["8", "9", "a", "b"].contains($0.dropFirst(19).first) })
        // Every other hex digit takes many values: the bits are random, not fixed.
        #expect(Set(ids.map { $0.first! }).count > 8)
        #expect(Set(ids.map { $0.last! }).count > 8)
    }

    @Test("an id's lowercase form is the uppercase string lowercased, byte for byte")
    func lowercaseIDs() throws {
        let fixed = try #require(UUID(uuidString: "0189ABCD-EF01-7234-9ABC-DEF012345678"))
        #expect(fixed.lowercasedString == "0189abcd-ef01-7234-9abc-def012345678")
        for _ in 0..<1000 {
            let id = UUID.random()
            #expect(id.lowercasedString == id.uuidString.lowercased())
        }
        #expect(UserID(fixed).description == "0189abcd-ef01-7234-9abc-def012345678")
    }

    @Test("a header's value reads as the subscript gives it: one field's value, several joined, none nil")
    func headerValues() {
        var fields: HTTPFields = [.contentLength: "12", .accept: "text/html", .authorization: "Bearer a"]
        #expect(fields.value(of: .contentLength) == "12")
        #expect(fields.value(of: .expect) == nil)
        fields.append(HTTPField(name: .accept, value: "application/json"))
        #expect(fields.value(of: .accept) == "text/html, application/json")
        fields.append(HTTPField(name: .cookie, value: "a=1"))
        fields.append(HTTPField(name: .cookie, value: "b=2"))
        #expect(fields.value(of: .cookie) == "a=1; b=2")
        for name in [HTTPField.Name.contentLength, .accept, .authorization, .cookie, .expect] {
            #expect(fields.value(of: name) == fields[name])
        }
    }

    @Test("a bearer token is read whatever the scheme's case and the blanks around it; anything else is none")
    func bearerTokens() {
        func token(_ value: String?) -> String? {
            var fields = HTTPFields()
            if let value { fields[.authorization] = value }
            return fields.bearerToken
        }
        #expect(token("Bearer abc.def-ghi") == "abc.def-ghi")
        #expect(token("bearer abc") == "abc")
        #expect(token("BEARER abc") == "abc")
        #expect(token("Bearer    abc \t ") == "abc")
        #expect(token(" \tBearer abc") == "abc")
        #expect(token("Bearer a b") == "a b")
        for refused in [
            nil, "", "Bearer", "Bearer ", "Bearer \t ", "Bearerabc", "Bearer\tabc", "Basic abc", "Bearers abc", "Bear abc", "Bérrer abc",
        ] {
            #expect(token(refused) == nil, "\(refused ?? "no header")")
        }
    }

    @Test("base64url is standard base64 with - and _ for + and /, unpadded, and reads back whatever the padding")
    func base64URL() {
        #expect(Data([0xFB, 0xFF]).base64URLEncodedString() == "-_8")
        #expect(Data(base64URLEncoded: "-_8") == Data([0xFB, 0xFF]))
        #expect(Data(base64URLEncoded: "-_8=") == Data([0xFB, 0xFF]))
        #expect(Data().base64URLEncodedString() == "")
        var random = SystemRandomNumberGenerator()
        for length in 0..<64 {
            let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) })
            let encoded = bytes.base64URLEncodedString()
            let standard = bytes.base64EncodedString()
            #expect(encoded == String(standard.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" }))
            #expect(Data(base64URLEncoded: encoded) == bytes)
        }
        for refused in ["a", "ab$c", "é", "ab cd"] {
            #expect(Data(base64URLEncoded: refused) == nil, "\(refused)")
        }
    }

    @Test("event ids are version 7 UUIDs that sort by their time, and never repeat")
    func timeOrderedEventIDs() {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let ids = (0..<1000).map { EventID.timeOrdered(at: start.addingTimeInterval(Double($0) / 100)) }
        #expect(Set(ids.map(\.description)).count == ids.count)
        #expect(ids.map(\.description) == ids.map(\.description).sorted())
        for id in ids {
            let text = id.description.lowercased()
            #expect(text.dropFirst(14).first == "7")
            #expect(["8", "9", "a", "b"].contains(text.dropFirst(19).first))
        }
        // The first 48 bits are the milliseconds since 1970.
        let milliseconds = String(1_790_000_000_000, radix: 16)
        let prefix = ids[0].description.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        #expect(prefix == String(repeating: "0", count: 12 - milliseconds.count) + milliseconds)
    }
}
