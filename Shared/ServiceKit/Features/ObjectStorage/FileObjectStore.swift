public import Foundation

/// Objects as files under a directory: the all-in-one's store (`<data-dir>/media`), where there is
/// no object storage to upload to directly, so uploads come through the module.
public struct FileObjectStore: ObjectStore {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func put(_ key: String, _ data: Data, contentType: String, cacheControl: String?) async throws {
        let file = try path(of: key)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: file, options: .atomic)
    }

    public func get(_ key: String, limit: Int) async throws -> Data? {
        let file = try path(of: key)
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        return try handle.read(upToCount: limit) ?? Data()
    }

    public func delete(_ key: String) async throws {
        let file = try path(of: key)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    public func keys(under prefix: String) async throws -> [String] {
        let base = directory.standardizedFileURL.path + "/"
        var keys: [String] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let file = files?.nextObject() as? URL {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let key = String(file.standardizedFileURL.path.dropFirst(base.count))
            if key.hasPrefix(prefix), !key.hasSuffix(".tmp") { keys.append(key) }
        }
        return keys.sorted()
    }

    public func uploadTarget(for key: String, contentType: String, byteSize: Int, expires: Date, now: Date) -> UploadTarget? { nil }

    private func path(of key: String) throws -> URL {
        guard ObjectKey.isValid(key) else { throw ObjectStoreUnavailable("not an object key: \(key)") }
        return directory.appendingPathComponent(key)
    }
}
