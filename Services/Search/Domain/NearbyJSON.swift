import Contracts
import Foundation

/// Writes a page of search results straight from the stored documents, as encoding
/// `Page<Nearby<Item>>` would write it, byte for byte.
///
/// Hand-written because decoding the twenty shown games and encoding them again was most of a
/// search's own work: perf over 50 km searches of a million games put JSONDecoder at 16 % of the
/// machine's samples and JSONEncoder at 6 %, against PostgreSQL's 21 %. A stored document already is
/// the item's JSON (`HuddleJSON`, keys sorted); a result is that object with `distanceMeters` put
/// among its keys, and for a game whose place the viewer may not see, without `location` and `venueId` (decoding
/// and encoding those, a tenth of the games, was another 11 % of search's CPU at 50 km on
/// PostgreSQL). `SearchResultsJSONTests` holds the output to the encoder's.
enum NearbyJSON {
    /// `document`, one object as `HuddleJSON.encoder` writes it, with `"distanceMeters":meters` in its
    /// sorted place and without the members `omitted` names; nil when it is not such an object or
    /// already has the key (the caller then encodes the result itself).
    static func withDistance(_ document: Data, meters: Int, without omitted: [String] = []) -> Data? {
        let omitted = omitted.map { Array($0.utf8) }
        return document.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let members = topLevelMembers(of: bytes) else { return nil }
            let distance = Array("\"distanceMeters\":\(meters)".utf8)
            // Written into an array and copied once: appending a slice of the buffer to `Data` went
            // byte by byte (two thirds of this function's time in perf).
            var result: [UInt8] = []
            result.reserveCapacity(document.count + distance.count + 1)
            result.append(UInt8(ascii: "{"))
            func append(_ member: UnsafeBufferPointer<UInt8>) {
                if result.count > 1 { result.append(UInt8(ascii: ",")) }
                result.append(contentsOf: member)
            }
            var placed = false
            for member in members {
                let name = bytes[member.key]
                if name.elementsEqual(key) { return nil }
                if !placed && !name.lexicographicallyPrecedes(key) {
                    distance.withUnsafeBufferPointer { append($0) }
                    placed = true
                }
                if omitted.contains(where: { name.elementsEqual($0) }) { continue }
                append(UnsafeBufferPointer(rebasing: bytes[member.whole]))
            }
            if !placed { distance.withUnsafeBufferPointer { append($0) } }
            result.append(UInt8(ascii: "}"))
            return Data(result)
        }
    }

    /// `{"items":[…],"nextCursor":…}` around results already written; `nextCursor` is `null` on the last page.
    static func page(of items: [Data], nextCursor: String?) throws -> Data {
        var page = Data("{\"items\":[".utf8)
        for (index, item) in items.enumerated() {
            if index > 0 { page.append(UInt8(ascii: ",")) }
            page.append(item)
        }
        page.append(Data("],\"nextCursor\":".utf8))
        page.append(try nextCursor.map { try HuddleJSON.encoder.encode($0) } ?? Data("null".utf8))
        page.append(UInt8(ascii: "}"))
        return page
    }

    /// The JSON of the top-level member `name` of `document`, as written there; nil when `document`
    /// is not an object or has no such member. Search stores a changed game's own JSON from its
    /// event this way rather than decoding the whole game and encoding it again (`ChangedGame`).
    static func member(_ name: String, of document: Data) -> Data? {
        let name = Array(name.utf8)
        return document.withUnsafeBytes { raw -> Data? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let member = topLevelMembers(of: bytes)?.first(where: { bytes[$0.key].elementsEqual(name) }) else { return nil }
            let isSeparator = { (byte: UInt8) in byte == UInt8(ascii: ":") || whitespace.contains(byte) }
            // After the key's closing quote: the colon and any whitespace around the value.
            var value = (member.key.upperBound + 1)..<member.whole.upperBound
            while let first = value.first, isSeparator(bytes[first]) { value = value.dropFirst() }
            while let last = value.last, whitespace.contains(bytes[last]) { value = value.dropLast() }
            return Data(UnsafeBufferPointer(rebasing: bytes[value]))
        }
    }

    private static let key = Array("distanceMeters".utf8)
    private static let whitespace: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")]

    /// A top-level member: its key's bytes, and everything from the key's opening quote to the end of its value.
    private struct Member {
        var key: Range<Int>
        var whole: Range<Int>
    }

    /// The members of the object `bytes` holds, in order; nil when it holds no object, or an escaped
    /// key (which would need unescaping to compare: none of ours has one). Keys are compared by their
    /// bytes: every key of the documents stored is ASCII.
    private static func topLevelMembers(of bytes: UnsafeBufferPointer<UInt8>) -> [Member]? {
        guard bytes.first == UInt8(ascii: "{") else { return nil }
        var members: [Member] = []
        var depth = 0, inString = false, escaped = false
        var memberStart: Int?, keyStart: Int?, key: Range<Int>?
        func memberEnds(at end: Int) -> Bool {
            guard let start = memberStart, let name = key else { return memberStart == nil }
            members.append(Member(key: name, whole: start..<end))
            memberStart = nil
            key = nil
            return true
        }
        for index in bytes.indices {
            let byte = bytes[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    if keyStart != nil { return nil }
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if let start = keyStart { key = (start + 1)..<index }
                    keyStart = nil
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                if depth == 1 && memberStart == nil {
                    memberStart = index
                    keyStart = index
                }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth == 1 else {
                    depth -= 1
                    continue
                }
                guard byte == UInt8(ascii: "}"), memberEnds(at: index) else { return nil }
                return members
            case UInt8(ascii: ","):
                if depth == 1 && !memberEnds(at: index) { return nil }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            default:
                // Anything but whitespace between members is not an object's.
                if depth == 1 && memberStart == nil { return nil }
            }
        }
        return nil
    }
}
