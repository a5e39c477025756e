import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

/// A 1 KB body of 511 nested arrays took 0.8 s of CPU to refuse, before any sign-in; it is refused
/// now for nesting past the limit, before its tree is read (the cost: `huddle-bench json`).
@Suite("Deep JSON through the gateway")
struct DeepJSONTests {
    static let deep = String(repeating: "[", count: 511) + String(repeating: "]", count: 511)

    @Test("a body nested past the limit is a 400 naming the limit on the routes open before sign-in, and on the chat socket an error frame")
    func refusedForItsDepth() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let body = Data(Self.deep.utf8)
            let answers = [
                try await gateway.call(AuthAPI.login, rawBody: body), try await gateway.call(AuthAPI.register, rawBody: body),
                try await gateway.call(AuthAPI.appleNotifications, rawBody: body),
                try await gateway.call(PurchasesAPI.appleNotification, rawBody: body),
            ]
            for answer in answers {
                #expect(answer.status == 400)
                #expect(answer.problem?.detail == "The body nests arrays and objects deeper than \(JSONTree.maximumDepth) levels.")
            }
            let player = try await gateway.register(name: "Deep Diver")
            let socket = try await ReservedBitsTests.upgraded(gateway.baseURL, path: ChatAPI.live.path(), token: player.accessToken)
            defer { Task { await socket.close() } }
            try await socket.send(bytes: ReservedBitsTests.maskedText(#"{"type":"send","roomId":"# + Self.deep + "}"))
            let refusal = try await poll(
                { String(decoding: socket.bytesAfterHead, as: UTF8.self) }, until: { $0.contains("levels deep") })
            #expect(refusal.contains("at most \(JSONTree.maximumDepth) levels deep"))
        }
    }
}
