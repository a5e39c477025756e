/// Follows the bytes a client sends on one HTTP/1.1 connection far enough to know where each request
/// head begins and ends, so the gateway can bound a head's size before it is parsed (414 for the
/// request line, 431 for the whole head) and its arrival in time (`RequestHeadGuard`).
///
/// It skips a body by its `Content-Length`; after a chunked body or a protocol upgrade it stops
/// watching, since a later head is still bounded in size by the HTTP decoder behind it.
struct RequestHeadScanner {
    struct Limits: Equatable {
        /// The request line (method, target, version), without its line break.
        var requestLine: Int
        /// The whole head, request line and fields included.
        var head: Int
    }

    enum Refusal: Equatable {
        case requestLineTooLong
        case headTooLarge
    }

    enum Progress: Equatable {
        /// No byte of the next head has arrived.
        case betweenRequests
        /// Part of a head has arrived; it must end in time.
        case inHead
        /// A whole head arrived and its body, if any, is being passed on.
        case afterHead
        /// Watching stopped (an upgrade or a chunked body).
        case stopped
        case refused(Refusal)
    }

    private enum State {
        case head
        case body(remaining: Int)
        case stopped
        case refused(Refusal)
    }

    let limits: Limits
    private var state = State.head
    /// The head seen so far, leading blank lines left out (RFC 9112 §2.2 lets a client send them).
    private var head: [UInt8] = []
    private var requestLineLength: Int?
    /// How many whole heads have arrived on the connection.
    private(set) var headsSeen = 0

    init(limits: Limits) {
        self.limits = limits
        head.reserveCapacity(1024)
    }

    var progress: Progress {
        switch state {
        case .head: head.isEmpty ? .betweenRequests : .inHead
        case .body: .afterHead
        case .stopped: .stopped
        case .refused(let refusal): .refused(refusal)
        }
    }

    /// Takes the next bytes the client sent, in order.
    mutating func consume(_ bytes: some Collection<UInt8>) {
        var index = bytes.startIndex
        while index != bytes.endIndex {
            switch state {
            case .stopped, .refused:
                return
            case .body(let remaining):
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let taken = min(remaining, available)
                index = bytes.index(index, offsetBy: taken)
                state = remaining == taken ? .head : .body(remaining: remaining - taken)
            case .head where head.isEmpty && (bytes[index] == .cr || bytes[index] == .lf):
                index = bytes.index(after: index)
            case .head:
                // A line (or what there is of it) at a time: byte by byte this scan was the gateway's
                // costliest function of its own (1.6 % of its CPU at one connection, perf).
                let lineEnd = bytes[index...].firstIndex(of: .lf)
                let end = lineEnd.map { bytes.index(after: $0) } ?? bytes.endIndex
                head.append(contentsOf: bytes[index..<end])
                index = end
                take(endingLine: lineEnd != nil)
            }
        }
    }

    /// The head has grown by part of a line, `endingLine` when up to its line feed.
    private mutating func take(endingLine: Bool) {
        if requestLineLength == nil {
            if head.count - (endingLine ? 1 : 0) > limits.requestLine {
                state = .refused(.requestLineTooLong)
                return
            }
            if endingLine { requestLineLength = head.count - (head.count >= 2 && head[head.count - 2] == .cr ? 2 : 1) }
        }
        if head.count > limits.head {
            state = .refused(.headTooLarge)
            return
        }
        if endingLine, endsHead { finishHead() }
    }

    /// A head ends with an empty line: CRLF CRLF, or bare LFs, which decoders also accept.
    private var endsHead: Bool {
        let count = head.count
        if count >= 2, head[count - 2] == .lf { return true }
        return count >= 3 && head[count - 2] == .cr && head[count - 3] == .lf
    }

    private mutating func finishHead() {
        headsSeen += 1
        let fields = HeadFields(head)
        head.removeAll(keepingCapacity: true)
        requestLineLength = nil
        if fields.upgrade || fields.chunked {
            state = .stopped
        } else if let length = fields.contentLength, length > 0 {
            state = .body(remaining: length)
        } else {
            state = .head
        }
    }
}

/// The few fields of a head that say how long its body is, read without allocating per field.
private struct HeadFields {
    var contentLength: Int?
    var chunked = false
    var upgrade = false

    init(_ head: [UInt8]) {
        // Line by line after the request line, without an array of lines (splitting the head was
        // 1.3 % of the gateway's CPU at one connection, perf).
        var start = head.firstIndex(of: .lf).map { $0 + 1 } ?? head.endIndex
        while start < head.endIndex {
            let end = head[start...].firstIndex(of: .lf) ?? head.endIndex
            let line = head[start..<end]
            start = end + 1
            guard let colon = line.firstIndex(of: .colon) else { continue }
            let name = line[line.startIndex..<colon]
            let value = line[line.index(after: colon)...].trimmed
            if name.equalsIgnoringCase("content-length") {
                contentLength = Int(String(decoding: value, as: UTF8.self))
            } else if name.equalsIgnoringCase("transfer-encoding") {
                chunked = true
            } else if name.equalsIgnoringCase("upgrade") {
                upgrade = true
            }
        }
    }
}

extension UInt8 {
    fileprivate static let cr = UInt8(ascii: "\r")
    fileprivate static let lf = UInt8(ascii: "\n")
    fileprivate static let colon = UInt8(ascii: ":")
}

extension ArraySlice<UInt8> {
    fileprivate var trimmed: ArraySlice<UInt8> {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == .cr }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return [] }
        return self[first...last]
    }

    fileprivate func equalsIgnoringCase(_ name: StaticString) -> Bool {
        guard count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { expected in
            zip(self, expected).allSatisfy { $0 | 0x20 == $1 | 0x20 }
        }
    }
}
