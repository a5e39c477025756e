import HummingbirdWebSocket
import NIOCore
import Testing

@testable import ChatService

@Suite("A socket message put together from its frames")
struct IncomingMessageTests {
    func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test("A text frame with FIN is a message; one without waits for its continuations")
    func fragments() {
        var message = IncomingMessage(maxSize: 64)
        #expect(message.add(opcode: .text, data: bytes("{\"type\":"), fin: true) == .text(bytes("{\"type\":")))
        #expect(message.add(opcode: .text, data: bytes("{\"ty"), fin: false) == nil)
        #expect(message.add(opcode: .continuation, data: bytes("pe\":"), fin: false) == nil)
        #expect(message.add(opcode: .continuation, data: bytes("1}"), fin: true) == .text(bytes("{\"type\":1}")))
        #expect(message.add(opcode: .text, data: bytes("next"), fin: true) == .text(bytes("next")))
    }

    @Test("A message over the limit is unusable however it is split, and the next one is read whole")
    func overTheLimit() {
        var message = IncomingMessage(maxSize: 8)
        #expect(message.add(opcode: .text, data: bytes("12345678"), fin: true) == .text(bytes("12345678")))
        #expect(message.add(opcode: .text, data: bytes("123456789"), fin: true) == .tooLarge)
        #expect(message.add(opcode: .text, data: bytes("12345"), fin: false) == nil)
        #expect(message.add(opcode: .continuation, data: bytes("6789"), fin: false) == nil)
        #expect(message.add(opcode: .continuation, data: bytes("0"), fin: true) == .tooLarge)
        #expect(message.add(opcode: .text, data: bytes("ok"), fin: true) == .text(bytes("ok")))
    }

    @Test("Binary messages and continuations with nothing to continue are told apart from text")
    func binaryAndStrayContinuations() {
        var message = IncomingMessage(maxSize: 8)
        #expect(message.add(opcode: .binary, data: bytes("ab"), fin: false) == nil)
        #expect(message.add(opcode: .continuation, data: bytes("cd"), fin: true) == .binary)
        #expect(message.add(opcode: .continuation, data: bytes("ef"), fin: true) == .strayContinuation)
        #expect(message.add(opcode: .text, data: bytes("a"), fin: false) == nil)
        #expect(message.add(opcode: .text, data: bytes("b"), fin: true) == .text(bytes("b")))
    }
}
