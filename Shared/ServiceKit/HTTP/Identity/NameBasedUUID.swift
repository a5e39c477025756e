import Crypto
public import Foundation

extension UUID {
    /// A UUID version 5 (RFC 9562 name-based, SHA-1) of `name` in `namespace`: the same id for the
    /// same name on every replica and after every rebuild, so ids derived from outside keys (a
    /// provider's fixture, a ticket's payout) never depend on which instance made them first.
    public static func nameBased(_ name: String, in namespace: UUID) -> UUID {
        var namespace = namespace.uuid
        let prefix = withUnsafeBytes(of: &namespace) { Data($0) }
        var bytes = Array(Insecure.SHA1.hash(data: prefix + Data(name.utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
