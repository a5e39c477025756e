import DeploymentCheck
import Foundation
import Testing

/// `.env` as docker compose reads it, and the README's own example read that way.
@Suite("The .env file")
struct DotEnvTests {
    @Test("one KEY=VALUE a line: comments, export, quotes and escapes as compose takes them; nothing run")
    func rules() throws {
        let values = try DotEnv.parse(
            """
            # a comment
            export A=1
            B = two words   # a note
            C="line\\nbreak \\"quoted\\""
            D='$(openssl rand -hex 32) #kept'

            E=
            """)
        #expect(values == ["A": "1", "B": "two words", "C": "line\nbreak \"quoted\"", "D": "$(openssl rand -hex 32) #kept", "E": ""])
        #expect(throws: DotEnv.Malformed.self) { try DotEnv.parse("A=1\nnot a line") }
        #expect(throws: DotEnv.Malformed.self) { try DotEnv.parse("1A=x") }
    }

    @Test("the README's .env, filled in, gives every compose service all it requires")
    func readmeExampleFitsCompose() throws {
        let readme = try WiringTests.text("README.md")
        let start = try #require(readme.range(of: "```sh\n# .env, read by docker compose"))
        let block = readme[start.upperBound...]
        let end = try #require(block.range(of: "\n```"))
        let variables = try DotEnv.parse("# .env" + String(block[..<end.lowerBound]))
        #expect(variables["POSTGRES_PASSWORD"] == "..." && variables["ADMIN_EMAILS"] == "ada@huddle.dev")
        #expect(variables["APPLE_SIGN_IN_KEY"]?.contains("\n") == true)
        let compose = try ComposeFile(yaml: try WiringTests.text("docker-compose.yml"))
        for service in compose.services.values {
            for (key, value) in service.environment {
                #expect(throws: Never.self, "\(service.name) \(key)") { _ = try ComposeFile.interpolate(value, with: variables) }
            }
        }
    }
}
