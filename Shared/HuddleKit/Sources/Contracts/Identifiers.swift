public import Foundation

/// A UUID that knows what it identifies, so a user id cannot be passed where a session id is expected.
/// Encodes as a plain UUID string.
public struct TypedID<Tag>: Hashable, Sendable, Codable, LosslessStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID = .random()) { self.uuid = uuid }

    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }

    public init(from decoder: any Decoder) throws {
        self.uuid = try decoder.singleValueContainer().decode(UUID.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Lowercase canonical form, the one stored and sent on the wire.
    public var description: String { uuid.lowercasedString }

    /// A UUID version 7: the first 48 bits are the Unix time in milliseconds, the rest random.
    /// Ids that grow with time are appended to the indexes that hold them (an inbox, a read model
    /// of a million games) instead of landing on a random page of a large index, which would
    /// then be written out again on every commit.
    public static func timeOrdered(at date: Date) -> TypedID {
        let milliseconds = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        // The random bits of a version 4 UUID, with the time over its first bytes.
        var uuid = UUID.random().uuid
        withUnsafeMutableBytes(of: &uuid) { bytes in
            for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
            bytes[6] = 0x70 | (bytes[6] & 0x0F)
            bytes[8] = 0x80 | (bytes[8] & 0x3F)
        }
        return TypedID(UUID(uuid: uuid))
    }
}

/// What an id's tag says it names, in the words a 404 uses ("No team with id …").
public protocol NamedThing {
    static var noun: String { get }
}

public enum UserTag: NamedThing { public static let noun = "player" }
public enum SessionTag: NamedThing { public static let noun = "session" }
public enum EventTag: NamedThing { public static let noun = "event" }

public typealias UserID = TypedID<UserTag>
public typealias SessionID = TypedID<SessionTag>
public typealias EventID = TypedID<EventTag>

extension UUID {
    /// A random (version 4) UUID from the system's generator. `UUID()` on Linux opens, reads and
    /// closes /dev/urandom on every call, about four times as slow, and ids are made on every
    /// request and event.
    public static func random() -> UUID {
        var words: (UInt64, UInt64) = (0, 0)
        fillRandomly(&words)
        return withUnsafeMutableBytes(of: &words) { bytes in
            bytes[6] = 0x40 | (bytes[6] & 0x0F)
            bytes[8] = 0x80 | (bytes[8] & 0x3F)
            return UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    /// The kernel's random bytes in one call: `SystemRandomNumberGenerator` asks for eight at a time,
    /// a `getrandom` system call each on Linux, and the gateway makes an id for every request
    /// (strace over it: two `getrandom`s a request, one with this).
    private static func fillRandomly(_ words: inout (UInt64, UInt64)) {
        #if canImport(Darwin) || canImport(Glibc)
            withUnsafeMutableBytes(of: &words) { arc4random_buf($0.baseAddress!, $0.count) }
        #else
            var generator = SystemRandomNumberGenerator()
            words = (generator.next(), generator.next())
        #endif
    }

    /// The canonical lowercase form (`uuidString.lowercased()`), the one Huddle stores and sends.
    /// Written straight from the bytes: every id in every answer is written this way, and the
    /// uppercase string lowercased took 704 ns in a release build where this takes 85.
    public var lowercasedString: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var written = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[written] = UInt8(ascii: "-")
                        written += 1
                    }
                    text[written] = Self.hexDigit(byte >> 4)
                    text[written + 1] = Self.hexDigit(byte & 0x0F)
                    written += 2
                }
                return written
            }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
