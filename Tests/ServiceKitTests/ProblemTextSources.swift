import Foundation

/// The `ProblemText`s the server's sources raise, read as Xcode's string extraction reads
/// `String(localized:)`: each literal passed where a problem's text goes, its catalogue key the
/// English with `%@` for each interpolation.
enum ProblemTextSources {
    /// The calls whose first argument (`invalid`'s second) is a problem's text.
    static let calls = [
        "localized(", ".forbidden(", ".notFound(", ".unauthorized(", ".malformedBody(", ".refused(", "refuse(", ".invalid(",
        "ProblemText = ", "refusal: ",
    ]

    /// Every key in the Swift files under `folders`, by where it is raised.
    static func keys(under folders: [String], skipping skipped: [String]) throws -> [(key: String, place: String)] {
        var found: [(String, String)] = []
        for folder in folders {
            guard let files = FileManager.default.enumerator(atPath: folder) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") && !skipped.contains(where: file.contains) {
                let source = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
                found += keys(in: source).map { ($0, "\(folder)/\(file)") }
            }
        }
        return found
    }

    static func keys(in source: String) -> [String] {
        let text = Array(source.unicodeScalars)
        var keys: [String] = []
        for call in calls {
            let marker = Array(call.unicodeScalars)
            var index = 0
            while let start = firstIndex(of: marker, in: text, from: index) {
                var position = start + marker.count
                index = position
                if call == ".invalid(" {
                    // The field comes first: skip to the comma after it.
                    guard let comma = endOfArgument(text, from: position) else { continue }
                    position = comma + 1
                }
                while position < text.count, text[position] == " " || text[position] == "\n" { position += 1 }
                guard position < text.count, text[position] == "\"", let (key, _) = literal(text, at: position) else { continue }
                keys.append(key)
            }
        }
        return keys
    }

    private static func firstIndex(of marker: [Unicode.Scalar], in text: [Unicode.Scalar], from start: Int) -> Int? {
        guard text.count >= marker.count, start <= text.count - marker.count else { return nil }
        var position = start
        search: while position <= text.count - marker.count {
            defer { position += 1 }
            guard text[position] == marker[0] else { continue }
            for offset in 1..<marker.count where text[position + offset] != marker[offset] { continue search }
            return position
        }
        return nil
    }

    /// Where the argument starting at `start` ends: the comma after it, at its own depth.
    private static func endOfArgument(_ text: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0, position = start
        while position < text.count {
            switch text[position] {
            case "\"":
                position = literal(text, at: position)?.end ?? text.count
                continue
            case "(", "[": depth += 1
            case ")", "]":
                if depth == 0 { return nil }
                depth -= 1
            case "," where depth == 0: return position
            default: break
            }
            position += 1
        }
        return nil
    }

    /// The key of the string literal opening at `start` and the index after it.
    private static func literal(_ text: [Unicode.Scalar], at start: Int) -> (key: String, end: Int)? {
        var key = "", position = start + 1
        while position < text.count {
            let scalar = text[position]
            if scalar == "\"" { return (key, position + 1) }
            if scalar == "\\", position + 1 < text.count {
                let next = text[position + 1]
                if next == "(" {
                    // An interpolation: `%@`, past its balanced parentheses (and any literal inside).
                    var depth = 1
                    position += 2
                    while position < text.count, depth > 0 {
                        if text[position] == "\"" {
                            position = literal(text, at: position)?.end ?? text.count
                            continue
                        }
                        if text[position] == "(" { depth += 1 }
                        if text[position] == ")" { depth -= 1 }
                        position += 1
                    }
                    key += "%@"
                    continue
                }
                key += next == "n" ? "\n" : next == "t" ? "\t" : String(next)
                position += 2
                continue
            }
            key += scalar == "%" ? "%%" : String(scalar)
            position += 1
        }
        return nil
    }
}
