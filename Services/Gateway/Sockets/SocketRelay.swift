import NIOCore
import NIOWebSocket
import ServiceHTTP

/// A device's live socket joined to a module's, frame by frame, in the two connections' handlers.
///
/// Both connections are on one event loop (the link to the module is opened on the device's), so a
/// frame the module sends is written to the device in the turn that read it: no task, no stream, no
/// hop between threads. Frames pass as they come, fragments included, never assembled; what each
/// end owes its own peer is answered here: pongs, close replies, and a fresh mask on every frame to
/// the module (a client's frames are masked, a server's are not).
///
/// The gateway first joined sockets with swift-websocket's client and Hummingbird's socket handler:
/// two async sequences and four tasks a device, each frame a turn of two of them. Through that the
/// gateway spent 72–75 µs of CPU a delivery, twice what chat spent producing it, and 66–75 KB a
/// device; relayed here, 31–34 µs and 16.4 KB (`huddle-bench chat --through-gateway`, 5,000 devices).
///
/// A device that stops taking what it is sent is cut off: once its connection holds more than the
/// kernel and NIO's watermark, `limits.buffer` more frames may wait for it, then the link to the
/// module ends and the device's connection is reset after `limits.drain` (its app resumes when it
/// is back). The other way, a device is not read while its link to the module is full. A device
/// that does not answer a ping by the next (every `limits.ping`) is closed.
final class SocketRelay {
    /// The longest frame either end may send through: a module, not the gateway, answers one it finds
    /// too long, with the error frame its socket documents.
    static let maxFrameSize = 1 << 20

    struct Limits: Sendable {
        var buffer: Int
        var drain: TimeAmount
        var ping: TimeAmount
    }

    private let module: any Channel
    private let limits: Limits
    private var device: (any Channel)?
    /// What the module sent before the device's side of the upgrade was done, and how it closed then.
    private var early: [WebSocketFrame] = []
    private var earlyClose: ByteBuffer?
    /// Frames written to the device since its connection last had room.
    private var heldWhileFull = 0
    private var deviceOwesFlush = false, moduleOwesFlush = false
    private var closingDevice = false, closingModule = false, moduleGone = false
    private var pingAnswered = true
    private var pinging: RepeatedTask?

    init(module: any Channel, limits: Limits) {
        self.module = module
        self.limits = limits
    }

    // MARK: The device's side

    /// Joins `device`, whose upgrade is done, and gives it what the module sent meanwhile.
    func attach(device: any Channel) throws {
        try device.pipeline.syncOperations.addHandler(RelayEnd(self, side: .device))
        self.device = device
        for frame in early { deliver(frame) }
        early = []
        flushDevice()
        let bound = NIOLoopBound(self, eventLoop: device.eventLoop)
        // Jitter, so that the devices of a reconnecting crowd are not all pinged in the same turn.
        pinging = device.eventLoop.scheduleRepeatedTask(
            initialDelay: limits.ping, delay: limits.ping, maximumAllowableJitter: .nanoseconds(limits.ping.nanoseconds / 10)
        ) { _ in bound.value.ping() }
        if let earlyClose {
            closeDevice(payload: earlyClose)
        } else if moduleGone {
            closeDevice(code: .goingAway, reason: "module instance unreachable")
        }
    }

    func fromDevice(_ frame: WebSocketFrame) {
        // No extension is negotiated, so a reserved bit means nothing the gateway could pass on
        // (RFC 6455 §5.2): rebuilt for the module, a compressed frame would have lost its mark.
        guard frame.reservedBits.isEmpty else {
            closeDevice(code: .protocolError, reason: "reserved bits set with no extension negotiated")
            return
        }
        switch frame.opcode {
        case .text, .binary, .continuation:
            guard frame.maskKey != nil else {
                closeDevice(code: .protocolError, reason: "frames must be masked")
                return
            }
            sendModule(WebSocketFrame(fin: frame.fin, opcode: frame.opcode, maskKey: .random(), data: frame.unmaskedData))
        case .ping:
            device?.writeAndFlush(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData), promise: nil)
        case .pong:
            pingAnswered = true
        case .connectionClose:
            deviceClosed(frame.unmaskedData)
        default:
            closeDevice(code: .protocolError, reason: "unknown opcode")
        }
    }

    func deviceReadComplete() {
        if moduleOwesFlush {
            moduleOwesFlush = false
            module.flush()
        }
    }

    func deviceWritabilityChanged(isWritable: Bool) {
        if isWritable { heldWhileFull = 0 }
    }

    /// Ends the link to the module when `device`'s connection ends, whether or not its upgrade is done.
    func closes(with device: any Channel) {
        let bound = NIOLoopBound(self, eventLoop: device.eventLoop)
        device.closeFuture.whenComplete { _ in bound.value.deviceGone() }
    }

    /// The device's connection ended: the module is told (1001 unless the device said why) and its
    /// link closed.
    private func deviceGone() {
        pinging?.cancel()
        pinging = nil
        closeModule(code: .goingAway, reason: "device gone")
        module.close(promise: nil)
    }

    /// The device sent a close frame: an answer to the gateway's, or its own, passed on to the module
    /// and answered with its code; either way the connection then ends, a server's to end.
    private func deviceClosed(_ payload: ByteBuffer) {
        guard let device else { return }
        guard !closingDevice else { return device.close(promise: nil) }
        closingDevice = true
        pinging?.cancel()
        closeModule(payload: payload)
        // Its code alone; a payload too short to hold one is answered with none.
        let code = payload.readableBytes >= 2 ? payload.getSlice(at: payload.readerIndex, length: 2) ?? ByteBuffer() : ByteBuffer()
        device.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)).whenComplete { _ in
            device.close(promise: nil)
        }
    }

    private func ping() {
        guard let device, !closingDevice else { return }
        guard pingAnswered else {
            closeDevice(code: .goingAway, reason: "ping timeout")
            device.close(promise: nil)
            return
        }
        pingAnswered = false
        device.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer()), promise: nil)
    }

    // MARK: The module's side

    func fromModule(_ frame: WebSocketFrame) {
        switch frame.opcode {
        case .text, .binary, .continuation:
            guard device != nil else { return early.append(frame) }
            deliver(frame)
        case .ping:
            sendModule(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.unmaskedData))
            module.flush()
        case .pong:
            break
        case .connectionClose:
            // The module's code and reason go to the device as they are: 1001 (the instance is going,
            // resume on another), 1008 (the session ended, sign in again), or the socket's own.
            // The device first: the link's closing would tell it 1001.
            if device == nil { earlyClose = frame.unmaskedData }
            closeDevice(payload: frame.unmaskedData)
            closeModule(payload: frame.unmaskedData)
            module.close(promise: nil)
        default:
            closeModule(code: .protocolError, reason: "unknown opcode")
            module.close(promise: nil)
        }
    }

    func moduleReadComplete() { flushDevice() }

    /// A device that sends faster than the module takes is read no further until the link has room
    /// again (its frames wait in its own connection), so the gateway holds nothing for it.
    func moduleWritabilityChanged(isWritable: Bool) {
        try? device?.syncOptions?.setOption(ChannelOptions.autoRead, value: isWritable)
    }

    /// The link to the module ended; a device that was not told why is told to resume elsewhere.
    func moduleClosed() {
        moduleGone = true
        if device != nil { closeDevice(code: .goingAway, reason: "module instance unreachable") }
    }

    /// The gateway is stopping: the device is told `code` (1001, so it resumes through another
    /// gateway) and the module's link ends. Succeeds once the device's close frame is written.
    func goAway(_ code: WebSocketErrorCode, reason: String) -> EventLoopFuture<Void> {
        let written = closeDevice(code: code, reason: reason)
        closeModule(code: .goingAway, reason: "gateway shutting down")
        module.close(promise: nil)
        return written ?? module.eventLoop.makeSucceededVoidFuture()
    }

    // MARK: Writing

    private func deliver(_ frame: WebSocketFrame) {
        guard let device, !closingDevice else { return }
        if !device.isWritable {
            heldWhileFull += 1
            if heldWhileFull > limits.buffer { return cutOff(device) }
        }
        var frame = frame
        if frame.maskKey != nil {
            frame = WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: frame.unmaskedData)
        }
        device.write(frame, promise: nil)
        deviceOwesFlush = true
    }

    private func flushDevice() {
        guard deviceOwesFlush, let device else { return }
        deviceOwesFlush = false
        device.flush()
    }

    /// Ends the module's link and resets the device's connection after `limits.drain`: its writes
    /// wait for room in a connection it does not read, so a polite close would wait behind them.
    private func cutOff(_ device: any Channel) {
        closingDevice = true
        pinging?.cancel()
        closeModule(code: .goingAway, reason: "device not reading")
        module.close(promise: nil)
        LiveSockets.cutOff(device, after: limits.drain)()
    }

    private func sendModule(_ frame: WebSocketFrame) {
        guard !closingModule, module.isActive else { return }
        module.write(frame, promise: nil)
        moduleOwesFlush = true
    }

    private func closeModule(code: WebSocketErrorCode, reason: String) {
        closeModule(payload: Self.closePayload(code, reason))
    }

    private func closeModule(payload: ByteBuffer) {
        guard !closingModule, module.isActive else { return }
        module.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: payload), promise: nil)
        closingModule = true
        moduleOwesFlush = false
    }

    /// Sends the device a close frame; the connection ends on its answer, or is reset
    /// `LiveSockets.closeGrace` later (a device that stopped reading never sees a polite close, queued
    /// behind what it did not read). Returns when the frame is written.
    @discardableResult
    func closeDevice(code: WebSocketErrorCode, reason: String) -> EventLoopFuture<Void>? {
        closeDevice(payload: Self.closePayload(code, reason))
    }

    @discardableResult
    private func closeDevice(payload: ByteBuffer) -> EventLoopFuture<Void>? {
        guard let device, !closingDevice else { return nil }
        closingDevice = true
        pinging?.cancel()
        flushDevice()
        device.eventLoop.scheduleTask(in: LiveSockets.closeGrace) { LiveSockets.reset(device) }
        return device.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
    }

    static func closePayload(_ code: WebSocketErrorCode, _ reason: String) -> ByteBuffer {
        var payload = ByteBuffer()
        payload.write(webSocketErrorCode: code)
        payload.writeString(reason)
        return payload
    }
}

/// One connection's end of a `SocketRelay`: the device's, or the link to the module.
final class RelayEnd: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    enum Side { case device, module }

    private let relay: SocketRelay
    private let side: Side

    init(_ relay: SocketRelay, side: Side) {
        self.relay = relay
        self.side = side
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch side {
        case .device: relay.fromDevice(unwrapInboundIn(data))
        case .module: relay.fromModule(unwrapInboundIn(data))
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        switch side {
        case .device: relay.deviceReadComplete()
        case .module: relay.moduleReadComplete()
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        switch side {
        case .device: relay.deviceWritabilityChanged(isWritable: context.channel.isWritable)
        case .module: relay.moduleWritabilityChanged(isWritable: context.channel.isWritable)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if side == .module { relay.moduleClosed() }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}

/// A relayed socket as the gateway's `OpenSockets` hold it.
struct RelayedSocket: LiveSocketEnd {
    let relay: NIOLoopBound<SocketRelay>

    func close(_ code: WebSocketErrorCode, reason: String?) async throws {
        try await relay.eventLoop.flatSubmit { [relay] in relay.value.goAway(code, reason: reason ?? "") }.get()
    }
}
