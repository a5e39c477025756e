import Contracts
import Foundation
import HuddleModules
import ServiceHTTP
import Testing

/// The all-in-one's internal keys outlive a restart, so the answer tokens its pushes carried stay valid.
@Suite("The all-in-one's kept internal keys")
struct KeptInternalKeysTests {
    @Test("made on the first start, owner-readable only, read back the same on the next; a spoiled file stops the start and names itself")
    func keptAcrossStarts() throws {
        let dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dataDir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dataDir) }
        let first = try KeptInternalKeys.load(dataDir: dataDir.path)
        let second = try KeptInternalKeys.load(dataDir: dataDir.path)
        #expect(first.publicKeyList == second.publicKeyList)
        #expect(Set(first.privateKeys.keys) == Set(ServiceModule.allCases))
        let file = dataDir.appendingPathComponent(KeptInternalKeys.fileName).path
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions == 0o600)

        try Data("internal.keys=games:not a key".utf8).write(to: URL(fileURLWithPath: file))
        #expect { try KeptInternalKeys.load(dataDir: dataDir.path) } throws: { "\($0)".contains(file) }
    }
}
