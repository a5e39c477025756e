import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import Gateway

/// The relay between a device's socket and a module's, on two channels of one event loop whose clock
/// the tests move: what passes each way, what each end is answered, and when the device is let go.
@Suite("Socket relay")
struct SocketRelayTests {
    let loop = EmbeddedEventLoop()
    let device: EmbeddedChannel
    let module: EmbeddedChannel
    let relay: SocketRelay

    init() throws {
        device = EmbeddedChannel(loop: loop)
        module = EmbeddedChannel(loop: loop)
        try device.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        try module.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 2)).wait()
        relay = SocketRelay(module: module, limits: .init(buffer: 3, drain: .seconds(1), ping: .seconds(30)))
        try module.pipeline.syncOperations.addHandler(RelayEnd(relay, side: .module))
        relay.closes(with: device)
    }

    static func text(_ text: String, fin: Bool = true, opcode: WebSocketOpcode = .text, masked: Bool = false) -> WebSocketFrame {
        let key: WebSocketMaskingKey? = masked ? .random() : nil
        var data = ByteBuffer(string: text)
        if let key { data.webSocketMask(key) }
        return WebSocketFrame(fin: fin, opcode: opcode, maskKey: key, data: data)
    }

    func outbound(_ channel: EmbeddedChannel) throws -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) { frames.append(frame) }
        return frames
    }

    @Test("what the module sends before the device's upgrade is done reaches it once joined, in order, as sent")
    func earlyFramesWait() throws {
        try module.writeInbound(Self.text("first"))
        try module.writeInbound(Self.text("second"))
        #expect(try outbound(device).isEmpty)
        try relay.attach(device: device)
        #expect(try outbound(device).map { String(buffer: $0.data) } == ["first", "second"])
    }

    @Test("a fragmented message passes frame by frame, unmasked to the device and masked afresh to the module")
    func fragmentsAndMasks() throws {
        try relay.attach(device: device)
        try device.writeInbound(Self.text("hel", fin: false, masked: true))
        try device.writeInbound(Self.text("lo", opcode: .continuation, masked: true))
        let toModule = try outbound(module)
        #expect(toModule.map(\.opcode) == [.text, .continuation] && toModule.map(\.fin) == [false, true])
        #expect(toModule.allSatisfy { $0.maskKey != nil })
        // Frames written carry their key and plain data; the encoder masks them on the wire.
        #expect(toModule.map { String(buffer: $0.data) } == ["hel", "lo"])

        try module.writeInbound(Self.text("wor", fin: false))
        try module.writeInbound(Self.text("ld", opcode: .continuation))
        let toDevice = try outbound(device)
        #expect(toDevice.map(\.opcode) == [.text, .continuation] && toDevice.allSatisfy { $0.maskKey == nil })
        #expect(toDevice.map { String(buffer: $0.data) } == ["wor", "ld"])
    }

    @Test("a device's unmasked data frame is a protocol error, and nothing reaches the module")
    func unmaskedFromDevice() throws {
        try relay.attach(device: device)
        try device.writeInbound(Self.text("bare"))
        #expect(try outbound(module).isEmpty)
        let close = try #require(try outbound(device).last)
        #expect(close.opcode == .connectionClose && close.data.getInteger(at: close.data.readerIndex, as: UInt16.self) == 1002)
    }

    @Test("the module's close goes to the device as it is, 1008 with its reason, and the link is closed")
    func moduleCloseIsPassedOn() throws {
        try relay.attach(device: device)
        try module.writeInbound(
            WebSocketFrame(fin: true, opcode: .connectionClose, data: SocketRelay.closePayload(.policyViolation, "session ended")))
        let close = try #require(try outbound(device).last)
        #expect(close.opcode == .connectionClose)
        #expect(close.data.getInteger(at: close.data.readerIndex, as: UInt16.self) == 1008)
        #expect(close.data.getString(at: close.data.readerIndex + 2, length: close.data.readableBytes - 2) == "session ended")
        #expect(!module.isActive)
        // The device answers; its connection then ends.
        try device.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: ByteBuffer()))
        loop.run()
        #expect(!device.isActive)
    }

    @Test(
        "a device that stops taking frames may have three more wait once its connection is full; the fourth ends the link, and the device is reset after the drain"
    )
    func cutOff() throws {
        try relay.attach(device: device)
        device.isWritable = false
        for index in 1...3 { try module.writeInbound(Self.text("held \(index)")) }
        #expect(module.isActive)
        try module.writeInbound(Self.text("one too many"))
        #expect(!module.isActive)
        #expect(device.isActive)
        loop.advanceTime(by: .seconds(1))
        #expect(!device.isActive)
    }

    @Test("room again in the device's connection starts the count again")
    func roomAgain() throws {
        try relay.attach(device: device)
        for _ in 0..<3 {
            device.isWritable = false
            device.pipeline.fireChannelWritabilityChanged()
            for index in 1...3 { try module.writeInbound(Self.text("held \(index)")) }
            device.isWritable = true
            device.pipeline.fireChannelWritabilityChanged()
        }
        #expect(module.isActive && device.isActive)
    }

    @Test("a device is read no further while the module's link is full, and again once it has room")
    func deviceWaitsForTheModule() throws {
        try relay.attach(device: device)
        func autoRead() -> Bool? {
            device.options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
        }
        #expect(autoRead() == nil)
        module.isWritable = false
        module.pipeline.fireChannelWritabilityChanged()
        #expect(autoRead() == false)
        module.isWritable = true
        module.pipeline.fireChannelWritabilityChanged()
        #expect(autoRead() == true)
    }

    @Test("the device is pinged; one that answered keeps its socket, one that did not is closed with 1001 at the next ping")
    func pings() throws {
        try relay.attach(device: device)
        loop.advanceTime(by: .seconds(33))
        #expect(try outbound(device).map(\.opcode) == [.ping])
        try device.writeInbound(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: ByteBuffer()))
        loop.advanceTime(by: .seconds(33))
        #expect(try outbound(device).map(\.opcode) == [.ping])
        #expect(device.isActive)
        loop.advanceTime(by: .seconds(33))
        let close = try #require(try outbound(device).last)
        #expect(close.opcode == .connectionClose && close.data.getInteger(at: close.data.readerIndex, as: UInt16.self) == 1001)
        #expect(!device.isActive && !module.isActive)
    }

    @Test("a device's ping is answered by the gateway; its close goes to the module, and both connections end")
    func deviceSide() throws {
        try relay.attach(device: device)
        try device.writeInbound(Self.text("hi", opcode: .ping, masked: true))
        let pong = try #require(try outbound(device).first)
        #expect(pong.opcode == .pong && String(buffer: pong.data) == "hi")
        #expect(try outbound(module).isEmpty)

        var bye = SocketRelay.closePayload(.normalClosure, "bye")
        let key = WebSocketMaskingKey.random()
        bye.webSocketMask(key)
        try device.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: key, data: bye))
        let toModule = try #require(try outbound(module).last)
        #expect(toModule.opcode == .connectionClose && toModule.maskKey != nil)
        #expect(toModule.data.getInteger(at: toModule.data.readerIndex, as: UInt16.self) == 1000)
        loop.run()
        #expect(!device.isActive)
        #expect(!module.isActive)
    }
}
