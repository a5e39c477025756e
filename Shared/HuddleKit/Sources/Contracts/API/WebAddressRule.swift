/// An http(s) address a person gives (a picture, a website), checked by servers with the very
/// pattern the document states. Only the characters RFC 3986 allows in a URI are accepted, so what
/// is stored opens in any client.
public struct WebAddressRule: Sendable {
    public let maxLength: Int

    public init(maxLength: Int) { self.maxLength = maxLength }

    static let body =
        "[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9][-A-Za-z0-9.]*(?::[0-9]{1,5})?(?:[/?#][-A-Za-z0-9._~:/?#\\[\\]@!$&'()*+,;=%]*)?"

    /// What is wrong with `value`, or nil when it may be stored.
    public func problem(_ value: String) -> String? {
        guard value.unicodeScalars.count <= maxLength, Self.matches(value) else {
            return "must be an http(s) URL of at most \(maxLength) characters"
        }
        return nil
    }

    public var schema: JSONSchema { JSONSchema.string.length(0...maxLength).pattern(JSONSchema.whole(Self.body)) }

    private static func matches(_ value: String) -> Bool {
        // Built on each call: a Regex is not Sendable, and these checks run once per write.
        guard let regex = try? Regex(body) else { return false }
        return (try? regex.wholeMatch(in: value)) != nil
    }
}
