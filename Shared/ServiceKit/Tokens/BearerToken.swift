import Foundation
public import HTTPTypes

extension HTTPFields {
    /// The token of an `Authorization: Bearer <token>` header. The scheme is matched without regard
    /// to case (RFC 9110 §11.1), so `bearer` and `BEARER` work too; nil without one.
    public var bearerToken: String? {
        guard let value = value(of: .authorization) else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

/// The `WWW-Authenticate` of a 401 (RFC 6750 §3): `invalid_token` when the request sent a token that
/// was refused, no error code when it sent none.
public enum BearerChallenge {
    public static func header(tokenSent: Bool) -> String {
        tokenSent ? #"Bearer realm="huddle", error="invalid_token""# : #"Bearer realm="huddle""#
    }
}
