import Contracts
import Foundation
import Logging
import NIOConcurrencyHelpers
import ServiceFeatures
import ServiceStore

/// Every account deletion, written down apart from the stores and their backups, so that a store
/// restored from before a deletion does not bring the account back: auth erases again, at every start,
/// each account the journal names that its store still holds (`replay`). An entry is written before the
/// deletion commits: one whose commit then failed only completes a deletion its owner asked for and
/// proved.
///
/// Where: a file of its own (`auth.erasure.journal.file`; in `huddle`, `data/erasure-journal.jsonl`,
/// which backups leave out and restores leave alone), one JSON line a deletion flushed to disk before
/// the deletion goes on; or, where auth runs in several pods, an object a deletion in a bucket every pod
/// reaches (`auth.erasure.journal.s3.*`, `BucketSettings`), kept apart from the database's backups. A
/// bucket that cannot be reached refuses the deletion with 503 rather than delete without a record.
struct ErasureJournal: Sendable {
    struct Entry: Codable, Equatable, Sendable {
        let userId: UserID
        let deletedAt: Date
    }

    enum Place: Sendable {
        case file(URL)
        case objects(any ObjectStore)
    }

    /// nil keeps no journal (a store whose backups are made and restored elsewhere, say).
    let place: Place?
    private let writing = NIOLock()

    init(_ place: Place?) { self.place = place }

    /// Objects are named `erasure-journal/<milliseconds since 1970, 13 digits>-<user id>`: a listing
    /// of the prefix is the journal, oldest first, with nothing to read but the names.
    static let prefix = "erasure-journal/"

    func record(_ user: UserID, at date: Date) async throws {
        switch place {
        case nil: return
        case .objects(let store):
            let entry = try Self.encoder.encode(Entry(userId: user, deletedAt: date))
            try await store.put(Self.key(of: user, at: date), entry, contentType: "application/json", cacheControl: nil)
        case .file(let file):
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
    }

    /// Every deletion written down, oldest first; a line cut short by a crash is passed over.
    func entries() async throws -> [Entry] {
        switch place {
        case nil: return []
        case .objects(let store):
            return try await store.keys(under: Self.prefix).compactMap(Self.entry(named:))
        case .file(let file):
            guard FileManager.default.fileExists(atPath: file.path) else { return [] }
            let text = try String(contentsOf: file, encoding: .utf8)
            return text.split(separator: "\n").compactMap { try? Self.decoder.decode(Entry.self, from: Data($0.utf8)) }
        }
    }

    static func key(of user: UserID, at date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        return Self.prefix + String(format: "%013lld", milliseconds) + "-" + user.description
    }

    static func entry(named key: String) -> Entry? {
        let name = key.dropFirst(prefix.count)
        guard key.hasPrefix(prefix), let dash = name.firstIndex(of: "-"), let milliseconds = Int64(name[..<dash]),
            let user = UserID(String(name[name.index(after: dash)...]))
        else { return nil }
        return Entry(userId: user, deletedAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
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
        for id in Set(try await journal.entries().map(\.userId)) {
            guard let user = try await database.read({ sql in try await users.user(id: id, on: sql) }) else { continue }
            try await erase(user, journaled: false)
            erased += 1
        }
        if erased > 0 { logger.notice("\(erased) accounts deleted after the store's restore point erased again (the erasure journal)") }
        return erased
    }
}
