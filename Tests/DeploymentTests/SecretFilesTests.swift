import Configuration
import Foundation
import HuddleModules
import ModuleLauncher
import Testing

/// Secrets reach a module as files (Kubernetes Secrets mounted in a directory), below the command
/// line and the environment.
@Suite("Secrets from files")
struct SecretFilesTests {
    @Test("a key is read from its file in the secrets directory; the command line still wins")
    func filesAreRead() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("secrets-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "postgres://huddle_auth:s3cret@db:5432/huddle_auth\n".write(
            to: directory.appendingPathComponent("auth-db-url"), atomically: true, encoding: .utf8)
        try "from-file".write(to: directory.appendingPathComponent("internal-keys"), atomically: true, encoding: .utf8)

        let reader = try await ConfigReader.huddle(overrides: ["internal.keys": "from-command-line"], secretsDirectory: directory.path)
        #expect(reader.string(forKey: "auth.db.url", isSecret: true) == "postgres://huddle_auth:s3cret@db:5432/huddle_auth")
        #expect(reader.string(forKey: "internal.keys", isSecret: true) == "from-command-line")
        #expect(reader.string(forKey: "catalog.db.url") == nil)
    }
}
