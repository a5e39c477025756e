import Contracts

/// Reads JSON text (RFC 8259) into a `JSONValue` in one pass over its bytes, refusing nesting deeper
/// than a limit as it goes.
///
/// Why not `JSONDecoder` into `JSONValue`: a `Decodable` cannot ask which kind a value is, so each
/// value tries the kinds in turn, and each failed try builds an error naming its whole coding path.
/// Even with nesting bounded at 32, a 1 KB body nested to the limit cost 10 ms of CPU (debug build)
/// and a 64 KB one 630 ms; read here they cost microseconds (`huddle-bench json`). Foundation's
/// `JSONSerialization` keeps a repeated field's last value where `JSONDecoder`, which then reads the
/// body into its type, keeps the first: the check and the type would read different values. This
/// keeps the first, as `JSONDecoder` does.
struct JSONTreeParser {
    enum Failure: Error { case tooDeep, invalid }

    private let bytes: UnsafeRawBufferPointer
    private let maximumDepth: Int
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    static func parse(_ bytes: UnsafeRawBufferPointer, maximumDepth: Int) throws(Failure) -> JSONValue {
        var parser = JSONTreeParser(bytes: bytes, maximumDepth: maximumDepth)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .invalid }
        return value
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw .invalid }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default: return try number()
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try enter()
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if take(UInt8(ascii: "}")) {
            depth -= 1
            return .object(members)
        }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .invalid }
            let key = try string()
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { throw .invalid }
            let member = try value()
            // The first of a repeated field stands, as JSONDecoder reads it.
            if members[key] == nil { members[key] = member }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { throw .invalid }
        depth -= 1
        return .object(members)
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try enter()
        var elements: [JSONValue] = []
        skipWhitespace()
        if take(UInt8(ascii: "]")) {
            depth -= 1
            return .array(elements)
        }
        repeat {
            elements.append(try value())
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "]")) else { throw .invalid }
        depth -= 1
        return .array(elements)
    }

    /// Steps into an array or object past its opening bracket.
    private mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= maximumDepth else { throw .tooDeep }
        index += 1
    }

    private mutating func string() throws(Failure) -> String {
        index += 1  // the opening quote
        var text: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let string = String(validating: text, as: UTF8.self) else { throw .invalid }
                return string
            case UInt8(ascii: "\\"):
                try escape(into: &text)
            case 0..<0x20:
                throw .invalid
            default:
                text.append(byte)
            }
        }
        throw .invalid
    }

    private mutating func escape(into text: inout [UInt8]) throws(Failure) {
        guard index < bytes.count else { throw .invalid }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(byte)
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by its low one.
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")) else { throw .invalid }
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw .invalid }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw .invalid
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw .invalid }
            text.append(contentsOf: Array(String(Character(unicode)).utf8))
        default: throw .invalid
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw .invalid }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalid
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`: an integer when its value is whole
    /// and fits in 64 bits, a finite number otherwise.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        _ = take(UInt8(ascii: "-"))
        guard index < bytes.count else { throw .invalid }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            guard digits() > 0 else { throw .invalid }
        }
        var whole = true
        if take(UInt8(ascii: ".")) {
            whole = false
            guard digits() > 0 else { throw .invalid }
        }
        if take(UInt8(ascii: "e")) || take(UInt8(ascii: "E")) {
            whole = false
            if !take(UInt8(ascii: "+")) { _ = take(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw .invalid }
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if whole, let integer = Int64(text) { return .integer(integer) }
        guard let number = Double(text), number.isFinite else { throw .invalid }
        // A whole value written with a fraction or an exponent (`1.0`, `1e3`) is an integer, as
        // JSONDecoder reads it.
        if number.rounded() == number, let integer = Int64(exactly: number) { return .integer(integer) }
        return .number(number)
    }

    /// Skips decimal digits; how many there were.
    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(Failure) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw .invalid }
        let matches = word.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[index + $0] == expected[$0] } }
        guard matches else { throw .invalid }
        index += count
        return value
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
