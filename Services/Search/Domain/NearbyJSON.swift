import Contracts
import Foundation

/// Writes a page of search results straight from the stored documents, as encoding
/// `Page<Nearby<Item>>` would write it, byte for byte.
///
/// Hand-written because decoding the twenty shown games and encoding them again was most of a
/// search's own work: perf over 50 km searches of a million games put JSONDecoder at 16 % of the
/// machine's samples and JSONEncoder at 6 %, against PostgreSQL's 21 %. A stored document already is
/// the item's JSON (`HuddleJSON`, keys sorted); a result is that object with `distanceMeters` put
/// among its keys. `SearchResultsJSONTests` holds the output to the encoder's.
enum NearbyJSON {
    /// `document`, one object as `HuddleJSON.encoder` writes it, with `"distanceMeters":meters` in its
    /// sorted place; nil when it is not such an object or already has the key (the caller then
    /// encodes the result itself).
    static func withDistance(_ document: Data, meters: Int) -> Data? {
        guard let insertion = distanceKeyPosition(in: document) else { return nil }
        var result = Data(capacity: document.count + 28)
        result.append(document[document.startIndex..<insertion.offset])
        let member = Data("\"distanceMeters\":\(meters)".utf8)
        switch insertion.place {
        case .beforeKey: result.append(member + Data(",".utf8))
        case .lastOfSome: result.append(Data(",".utf8) + member)
        case .only: result.append(member)
        }
        result.append(document[insertion.offset...])
        return result
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

    private static let key = Array("distanceMeters".utf8)

    private enum Place { case beforeKey, lastOfSome, only }

    /// Where the key goes: before the first top-level key that sorts after it, or before the closing
    /// brace. Keys are compared by their bytes: every key of the documents stored is ASCII.
    private static func distanceKeyPosition(in document: Data) -> (offset: Data.Index, place: Place)? {
        guard document.first == UInt8(ascii: "{") else { return nil }
        var depth = 0, inString = false, escaped = false, expectingKey = false, keys = 0
        var keyStart: Data.Index?
        var index = document.startIndex
        while index < document.endIndex {
            let byte = document[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    // An escaped key would need unescaping to compare: not among ours.
                    if keyStart != nil { return nil }
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    if let start = keyStart {
                        let name = document[document.index(after: start)..<index]
                        if name.elementsEqual(key) { return nil }
                        if name.lexicographicallyPrecedes(key) == false { return (start, .beforeKey) }
                        keyStart = nil
                        keys += 1
                    }
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                    if depth == 1 && expectingKey {
                        keyStart = index
                        expectingKey = false
                    }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                    expectingKey = depth == 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 {
                        guard byte == UInt8(ascii: "}") else { return nil }
                        return (index, keys == 0 ? .only : .lastOfSome)
                    }
                case UInt8(ascii: ","):
                    expectingKey = depth == 1
                default:
                    break
                }
            }
            index = document.index(after: index)
        }
        return nil
    }
}
