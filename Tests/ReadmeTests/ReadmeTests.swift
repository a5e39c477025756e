import Foundation
import Testing

/// What the README tells a newcomer to type is what works: its Swift snippets compile (they stand in
/// `ReadmeSnippets.swift`, line for line), and its docker compose secrets are every one that
/// `docker-compose.yml` requires.
@Suite("README")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The fenced blocks of `language` in `text`, each as its lines.
    static func blocks(_ language: String, in text: String) -> [[String]] {
        var blocks: [[String]] = [], current: [String]?
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    static func trimmed(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Test("every Swift snippet of the HuddleKit section is compiled, as written, in ReadmeSnippets.swift")
    func swiftSnippets() throws {
        let readme = try Self.text("README.md")
        let section =
            try #require(readme.components(separatedBy: "## iOS apps: HuddleKit").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        let compiled = Self.trimmed(try Self.text("Tests/ReadmeTests/ReadmeSnippets.swift").components(separatedBy: "\n"))
        let snippets = Self.blocks("swift", in: section).map(Self.trimmed).filter { !($0.first?.hasPrefix(".package(") ?? true) }
        #expect(snippets.count >= 3)
        for snippet in snippets {
            let found = compiled.indices.contains { start in
                start + snippet.count <= compiled.count && Array(compiled[start..<start + snippet.count]) == snippet
            }
            #expect(found, "not compiled as written:\n\(snippet.joined(separator: "\n"))")
        }
    }

    @Test("the compose secrets the README lists are every variable docker-compose.yml requires")
    func composeSecrets() throws {
        let compose = try Self.text("docker-compose.yml")
        let required = Set(compose.matches(of: #/\$\{([A-Z0-9_]+):\?/#).map { String($0.output.1) })
        #expect(required.contains("POSTGRES_PASSWORD"))
        let readme = try Self.text("README.md")
        let section = try #require(readme.components(separatedBy: "## Docker compose").dropFirst().first)
        let listed = try #require(Self.blocks("sh", in: section).first).joined(separator: "\n")
        let named = Set(listed.matches(of: #/([A-Z0-9_]+)=/#).map { String($0.output.1) })
        #expect(required.subtracting(named).isEmpty, "the README's list lacks \(required.subtracting(named).sorted())")
    }
}
