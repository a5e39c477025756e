public import HTTPTypes

extension HTTPFields {
    /// The token of an `Authorization: Bearer <token>` header. The scheme is matched without regard
    /// to case (RFC 9110 §11.1), so `bearer` and `BEARER` work too; nil without one.
    public var bearerToken: String? {
        guard let value = value(of: .authorization) else { return nil }
        // Read on the bytes: splitting and `trimmingCharacters(in:)` through Foundation took 2.8 % of
        // search's CPU a request (perf over 50 km searches), for a header every request carries.
        let fromScheme = value.utf8.drop(while: Self.isBlank)
        let scheme = fromScheme.prefix { $0 != UInt8(ascii: " ") }
        guard scheme.count == 6, zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }) else { return nil }
        var token = fromScheme.dropFirst(6).drop(while: Self.isBlank)
        while let last = token.last, Self.isBlank(last) { token = token.dropLast() }
        return token.isEmpty ? nil : String(Substring(token))
    }

    /// Space or tab, the blanks HTTP allows around a header's parts.
    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
}

/// The `WWW-Authenticate` of a 401 (RFC 6750 §3): `invalid_token` when the request sent a token that
/// was refused, no error code when it sent none.
public enum BearerChallenge {
    public static func header(tokenSent: Bool) -> String {
        tokenSent ? #"Bearer realm="huddle", error="invalid_token""# : #"Bearer realm="huddle""#
    }
}
