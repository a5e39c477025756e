public import Foundation

/// What the player read, kept on the device: a screen opens from it without the network (marked
/// stale), and when online the copy is asked for again with its `ETag`, so an unchanged answer costs
/// a 304 instead of the body. One file per answer in `directory` (memory only without one), the least
/// recently used dropped first once `capacityBytes` is passed. `HuddleClient` clears it when the
/// player signs out or deletes the account, and keys each answer by the player who read it.
public actor KeptReads {
    public let directory: URL?
    public let capacityBytes: Int
    private var entries: [String: Entry] = [:]
    private var loaded = false

    struct Entry: Codable, Sendable {
        var key: String
        var etag: String?
        var body: Data
        var savedAt: Date
        var usedAt: Date
    }

    /// `directory`: an app's caches directory (`FileManager.default.urls(for: .cachesDirectory, …)`)
    /// plus a folder of its own; nil keeps answers in memory only.
    public init(directory: URL? = nil, capacityBytes: Int = 20 << 20) {
        self.directory = directory
        self.capacityBytes = capacityBytes
    }

    /// Bytes of answers kept.
    public var sizeBytes: Int {
        load()
        return entries.values.reduce(0) { $0 + $1.body.count }
    }

    /// Forgets every answer, on the device too.
    public func clear() {
        entries = [:]
        loaded = true
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    func entry(_ key: String) -> Entry? {
        load()
        return entries[key]
    }

    func keep(_ key: String, etag: String?, body: Data, at now: Date) {
        load()
        let entry = Entry(key: key, etag: etag, body: body, savedAt: now, usedAt: now)
        entries[key] = entry
        write(entry)
        evict()
    }

    /// The copy was confirmed current (a 304): it counts as saved now.
    func confirm(_ key: String, at now: Date) {
        guard var entry = entries[key] else { return }
        entry.savedAt = now
        entry.usedAt = now
        entries[key] = entry
        write(entry)
    }

    private func evict() {
        var size = entries.values.reduce(0) { $0 + $1.body.count }
        for entry in entries.values.sorted(by: { $0.usedAt < $1.usedAt }) where size > capacityBytes {
            entries[entry.key] = nil
            size -= entry.body.count
            if let file = file(for: entry.key) { try? FileManager.default.removeItem(at: file) }
        }
    }

    private func load() {
        guard !loaded else { return }
        loaded = true
        guard let directory, let files = try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        else { return }
        for file in files where file.pathExtension == "json" {
            guard let data = try? Data(contentsOf: file), let entry = try? JSONDecoder().decode(Entry.self, from: data) else { continue }
            entries[entry.key] = entry
        }
    }

    private func write(_ entry: Entry) {
        guard let directory, let file = file(for: entry.key), let data = try? JSONEncoder().encode(entry) else { return }
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try? data.write(to: file, options: .atomic)
    }

    private func file(for key: String) -> URL? {
        directory?.appendingPathComponent(Self.fileName(key) + ".json")
    }

    /// A file name from the key: FNV-1a, 64 bits, written here because Foundation offers no hash
    /// function on every platform (CryptoKit is Apple's only) and HuddleKit depends on nothing else.
    /// A collision only makes two answers share a file, the later replacing the earlier; the key
    /// stored inside tells them apart on reading.
    static func fileName(_ key: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

/// An answer read through `KeptReads`: fresh from the server, or the kept copy when the server could
/// not be reached (`isStale`), with when it was last known current.
public struct Kept<Value: Sendable>: Sendable {
    public let value: Value
    public let isStale: Bool
    public let savedAt: Date
}
