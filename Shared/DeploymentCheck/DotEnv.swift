import Foundation

/// A `.env` file as `docker compose` reads it: `KEY=VALUE` a line, optionally after `export `; blank
/// lines and lines starting with `#` skipped; a value in double quotes may hold `\n`, `\t`, `\"` and
/// `\\`; one in single quotes is taken as it is; an unquoted one ends at ` #` and is trimmed. Nothing is
/// run or expanded (compose interpolates `${…}` in the compose file, not here). Hand-written: the few
/// rules above are all `huddle compose env` needs, and no package here reads the format.
public enum DotEnv {
    public struct Malformed: Error, CustomStringConvertible {
        public let line: Int
        public let text: String
        public var description: String { ".env line \(line) is not KEY=VALUE: \(text)" }
    }

    public static func parse(_ text: String) throws -> [String: String] {
        var values: [String: String] = [:]
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = raw.trimmingBlanks
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst("export ".count)).trimmingBlanks }
            guard let equals = line.firstIndex(of: "="), case let key = line[..<equals].trimmingBlanks, isName(key) else {
                throw Malformed(line: index + 1, text: String(raw))
            }
            values[key] = value(String(line[line.index(after: equals)...]).trimmingBlanks)
        }
        return values
    }

    private static func value(_ text: String) -> String {
        if text.count >= 2, text.hasPrefix("'"), let end = text.dropFirst().firstIndex(of: "'") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if text.hasPrefix("\"") {
            var result = "", escaped = false
            for character in text.dropFirst() {
                if escaped {
                    result.append(["n": "\n", "t": "\t", "r": "\r"][character] ?? character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return result
                } else {
                    result.append(character)
                }
            }
            return result
        }
        if let comment = text.range(of: " #") { return String(text[..<comment.lowerBound]).trimmingBlanks }
        return text
    }

    /// A variable's name: a letter or `_`, then letters, digits and `_`.
    private static func isName(_ key: String) -> Bool {
        func letter(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) || ("A"..."Z").contains(c) || c == "_" }
        guard let first = key.unicodeScalars.first, letter(first) else { return false }
        return key.unicodeScalars.allSatisfy { letter($0) || ("0"..."9").contains($0) }
    }
}

extension StringProtocol {
    fileprivate var trimmingBlanks: String {
        String(
            drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" })
                .reversed())
    }
}
