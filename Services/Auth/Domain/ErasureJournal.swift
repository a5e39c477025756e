import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceStore

/// Every account deletion, written down apart from the stores and their backups (a file of its own,
/// `auth.erasure.journal.file`: in `huddle`, `data/erasure-journal.jsonl`, which backups leave out and
/// restores leave alone), so that a store restored from before a deletion does not bring the account
/// back: auth erases again, at every start, each account the journal names that its store still holds
/// (`replay`). An entry is written before the deletion commits: one whose commit then failed only
/// completes a deletion its owner asked for and proved. One JSON line per deletion, flushed to disk
/// before the deletion goes on.
struct ErasureJournal: Sendable {
    struct Entry: Codable, Equatable, Sendable {
        let userId: UserID
        let deletedAt: Date
    }

    /// nil keeps no journal (a store whose backups are made and restored elsewhere, say).
    let file: URL?
    private let writing = NIOLock()

    init(file: URL?) { self.file = file }

    func record(_ user: UserID, at date: Date) throws {
        guard let file else { return }
        var line = try Self.encoder.encode(Entry(userId: user, deletedAt: date))
        line.append(UInt8(ascii: "\n"))
        try writing.withLock {
            if !FileManager.default.fileExists(atPath: file.path) {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
                }
            }
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: line)
            try handle.synchronize()
        }
    }

    /// Every deletion written down, oldest first; a line cut short by a crash is passed over.
    func entries() throws -> [Entry] {
        guard let file, FileManager.default.fileExists(atPath: file.path) else { return [] }
        let text = try String(contentsOf: file, encoding: .utf8)
        return text.split(separator: "\n").compactMap { try? Self.decoder.decode(Entry.self, from: Data($0.utf8)) }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}

extension AccountDeletion {
    /// Erases again every account the journal names that the store holds: after a restore from a
    /// backup older than their deletion, before auth answers anyone. Answers how many.
    func replay(_ journal: ErasureJournal) async throws -> Int {
        var erased = 0
        for id in Set(try journal.entries().map(\.userId)) {
            guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }) else { continue }
            try await erase(user, journaled: false)
            erased += 1
        }
        if erased > 0 { logger.notice("\(erased) accounts deleted after the store's restore point erased again (the erasure journal)") }
        return erased
    }
}
