public import Contracts
public import Foundation

/// Reads a client's JSON — a request body or a live socket's frame — into its tree in one pass over
/// its bytes (`JSONTreeParser`), refusing a text that nests arrays and objects deeper than
/// `maximumDepth` as soon as it does.
///
/// Decoded by `JSONDecoder`, a tree cost time in proportion to its size times its depth: each value
/// tried the kinds in turn, and each failed try built an error naming its whole coding path. 511
/// nested arrays in a 1 KB body took 0.8 s of CPU, before any sign-in. Read here, a tree costs time
/// linear in its size, whatever its shape (`huddle-bench json`). No body the API describes nests
/// deeper than six.
public enum JSONTree {
    /// The deepest nesting of arrays and objects a client may send.
    public static let maximumDepth = 32

    public enum Failure: Error, Equatable {
        case tooDeep
        case invalid
    }

    /// The tree of `data`; `tooDeep` once it nests deeper than the limit, `invalid` when it is not JSON.
    public static func read(_ data: Data) throws(Failure) -> JSONValue {
        let read = data.withUnsafeBytes { bytes in
            Result { () throws(JSONTreeParser.Failure) -> JSONValue in try JSONTreeParser.parse(bytes, maximumDepth: maximumDepth) }
        }
        switch read {
        case .success(let value): return value
        case .failure(.tooDeep): throw .tooDeep
        case .failure(.invalid): throw .invalid
        }
    }

    /// Refuses `data` when it nests deeper than the limit, as a problem naming the limit: for a body
    /// decoded into its type without its tree (an internal call's).
    public static func requireShallow(_ data: Data) throws {
        guard depth(of: data, stoppingPast: maximumDepth) <= maximumDepth else { throw CommonError.malformedBody(tooDeepDetail) }
    }

    /// The problem's wording for a text nested too deep.
    public static let tooDeepDetail: ProblemText = "The body nests arrays and objects deeper than \(maximumDepth) levels."

    /// How deep `data` nests arrays and objects, counting brackets outside strings; the scan stops
    /// once it passes `limit`. Malformed text is left to the decoder: this only bounds its work.
    static func depth(of data: Data, stoppingPast limit: Int) -> Int {
        data.withUnsafeBytes { bytes in
            var depth = 0
            var deepest = 0
            var inString = false
            var escaped = false
            for byte in bytes {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > deepest {
                        deepest = depth
                        if deepest > limit { return deepest }
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
            return deepest
        }
    }
}
