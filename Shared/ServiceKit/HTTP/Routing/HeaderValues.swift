public import HTTPTypes
public import NIOHTTP1

extension HTTPFields {
    /// The value of the `name` field, as `self[name]` gives it: every such field's value joined (with
    /// "; " for Cookie, ", " for the rest), nil without one. The modules and the gateway read headers
    /// through this, not the subscript.
    ///
    /// Why: the subscript joins even a single value through a lazy sequence whose generic code runs
    /// unspecialized in the standard library, looking up type metadata at run time. Reading one answer's
    /// Content-Length that way was 3.4 % of the gateway's CPU at one connection (perf); in a release
    /// build it takes 563 ns where finding the one field takes 13.
    public func value(of name: HTTPField.Name) -> String? {
        var found: String?
        for field in self where field.name == name {
            // Several fields of one name are rare: the subscript joins them as it always has.
            guard found == nil else { return self[name] }
            found = field.value
        }
        return found
    }
}

extension HTTPHeaders {
    /// The value of the `name` field (any case), as `HTTPFields.value(of:)` gives it: every such field's
    /// value joined (with "; " for Cookie, ", " for the rest), nil without one. For NIO's HTTP/1 heads,
    /// which the gateway's relay passes on without converting them to `HTTPFields`.
    public func value(of name: String) -> String? {
        var found: String?
        for (fieldName, value) in self where fieldName.equalsIgnoringASCIICase(name) {
            guard let earlier = found else {
                found = value
                continue
            }
            found = earlier + (name.equalsIgnoringASCIICase("cookie") ? "; " : ", ") + value
        }
        return found
    }
}

extension String {
    /// Equal but for the case of ASCII letters, as HTTP compares field names, without lowercasing
    /// either into a new string. Concrete rather than generic over `StringProtocol`: called across
    /// modules, the generic one ran unspecialized (zip, allSatisfy and their metadata at run time),
    /// 4 % of the gateway's CPU at one connection (perf).
    public func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        var mine = self, theirs = other
        return mine.withUTF8 { mine in
            theirs.withUTF8 { theirs in
                for index in 0..<mine.count where mine[index] != theirs[index] {
                    let lower = mine[index] | 0x20
                    guard lower == theirs[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
