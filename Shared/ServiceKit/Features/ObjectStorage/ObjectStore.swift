public import Contracts
public import Foundation
public import ServiceHTTP

/// Where uploaded bytes and what is made of them are kept: an S3-compatible store in production
/// (`S3ObjectStore`), a directory in the all-in-one (`FileObjectStore`).
public protocol ObjectStore: Sendable {
    func put(_ key: String, _ data: Data, contentType: String, cacheControl: String?) async throws
    /// The object's bytes, at most `limit` of them; nil when there is no such object.
    func get(_ key: String, limit: Int) async throws -> Data?
    /// Removes the object; removing one that is not there is not an error.
    func delete(_ key: String) async throws
    /// The keys of every object whose key starts with `prefix`, in key order.
    func keys(under prefix: String) async throws -> [String]
    /// Where a client may PUT `key` itself until `expires` (a presigned URL), with the headers it
    /// must send; nil when the store takes no uploads but through the module.
    func uploadTarget(for key: String, contentType: String, byteSize: Int, expires: Date, now: Date) -> UploadTarget?
}

/// A presigned upload: the URL, its method and the headers the request must carry as they are.
public struct UploadTarget: Sendable, Equatable {
    public var url: URL
    public var method: String
    public var headers: [String: String]

    public init(url: URL, method: String, headers: [String: String]) {
        self.url = url
        self.method = method
        self.headers = headers
    }
}

/// The store could not be reached or did not answer as the protocol says: answered 503, as any
/// other dependency that is down.
public struct ObjectStoreUnavailable: ProblemError, CustomStringConvertible {
    public var description: String

    public init(_ description: String) { self.description = description }

    public var problem: Problem { CommonError.dependencyUnavailable("Photo storage is unavailable; try again shortly.").problem }
}

/// A key names an object inside the store: letters, digits and `-_./`, no empty or dot segments,
/// so it can be a path under a directory as safely as a key in a bucket.
public enum ObjectKey {
    public static func isValid(_ key: String) -> Bool {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./")
        guard !key.isEmpty, key.count <= 512, key.unicodeScalars.allSatisfy(allowed.contains) else { return false }
        return key.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }
}
