public import Contracts
public import Foundation

/// Reads a client's JSON — a request body or a live socket's frame — into its tree, refusing first,
/// in one pass over the bytes, a text that nests arrays and objects deeper than `maximumDepth`.
///
/// Decoding `JSONValue` tries each kind in turn, and each failed try builds an error that names its
/// whole coding path, so a tree costs time in proportion to its size times its depth: 511 nested
/// arrays in a 1 KB body took 0.8 s of CPU, before any sign-in. With the depth bounded, a tree costs
/// time linear in its size (`huddle-bench json`). No body the API describes nests deeper than six.
public enum JSONTree {
    /// The deepest nesting of arrays and objects a client may send.
    public static let maximumDepth = 32

    public enum Failure: Error, Equatable {
        case tooDeep
        case invalid
    }

    /// The tree of `data`, or `tooDeep` without decoding anything when it nests deeper than the limit.
    public static func read(_ data: Data) throws(Failure) -> JSONValue {
        guard depth(of: data, stoppingPast: maximumDepth) <= maximumDepth else { throw .tooDeep }
        do {
            return try HuddleJSON.decoder.decode(JSONValue.self, from: data)
        } catch {
            throw .invalid
        }
    }

    /// Refuses `data` when it nests deeper than the limit, as a problem naming the limit.
    public static func requireShallow(_ data: Data) throws {
        guard depth(of: data, stoppingPast: maximumDepth) <= maximumDepth else { throw CommonError.malformedBody(tooDeepDetail) }
    }

    /// The problem's wording for a text nested too deep.
    public static let tooDeepDetail = "The body nests arrays and objects deeper than \(maximumDepth) levels."

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
