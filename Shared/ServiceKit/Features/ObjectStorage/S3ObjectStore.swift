public import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// An S3-compatible bucket (AWS S3, MinIO, R2, moto) spoken to over its REST protocol with
/// path-style addresses (`<endpoint>/<bucket>/<key>`), every request signed with SigV4, and
/// presigned PUTs for clients to upload to directly.
public struct S3ObjectStore: ObjectStore {
    public let endpoint: URL
    /// The address clients upload to, which presigned URLs name (and sign): the store's public
    /// address where modules reach it by another (`http://minio:9000` inside compose).
    public let clientEndpoint: URL
    public let bucket: String
    let signer: SigV4
    let httpClient: HTTPClient
    let timeout: Duration
    let now: @Sendable () -> Date
    /// Keys a listing asks for at a time (S3 answers at most a thousand).
    public var listPageSize = 1000

    public init(
        endpoint: URL, clientEndpoint: URL? = nil, bucket: String, signer: SigV4, httpClient: HTTPClient, timeout: Duration = .seconds(10),
        now: @escaping @Sendable () -> Date
    ) {
        self.endpoint = endpoint
        self.clientEndpoint = clientEndpoint ?? endpoint
        self.bucket = bucket
        self.signer = signer
        self.httpClient = httpClient
        self.timeout = timeout
        self.now = now
    }

    /// `<endpoint>/<bucket>/<key>`, each segment of the key percent-encoded as SigV4 signs it.
    public func url(of key: String, at base: URL? = nil) -> URL {
        let path = key.split(separator: "/").map { SigV4.encode(String($0)) }.joined(separator: "/")
        return URL(string: "\((base ?? endpoint).absoluteString.trimmingSuffix("/"))/\(bucket)/\(path)")!
    }

    public func put(_ key: String, _ data: Data, contentType: String, cacheControl: String?) async throws {
        var headers = ["Content-Type": contentType]
        if let cacheControl { headers["Cache-Control"] = cacheControl }
        let response = try await send("PUT", url(of: key), headers: headers, body: data)
        guard response.status == .ok else { throw ObjectStoreUnavailable("PUT \(key): \(response.status.code) \(response.text)") }
    }

    public func get(_ key: String, limit: Int) async throws -> Data? {
        let response = try await send("GET", url(of: key), limit: limit)
        switch response.status {
        case .ok: return response.body
        case .notFound: return nil
        default: throw ObjectStoreUnavailable("GET \(key): \(response.status.code) \(response.text)")
        }
    }

    public func delete(_ key: String) async throws {
        let response = try await send("DELETE", url(of: key))
        guard [.noContent, .ok, .notFound].contains(response.status) else {
            throw ObjectStoreUnavailable("DELETE \(key): \(response.status.code) \(response.text)")
        }
    }

    /// ListObjectsV2, `listPageSize` keys a page. The answer is read with a pattern
    /// rather than an XML parser (FoundationXML would link libxml2 for two elements): keys Huddle
    /// writes hold only `ObjectKey`'s characters, of which S3 escapes none, and the page's token is
    /// S3's own opaque text, whose entities are undone.
    public func keys(under prefix: String) async throws -> [String] {
        var keys: [String] = [], token: String?
        repeat {
            var query = "list-type=2&max-keys=\(listPageSize)&prefix=\(SigV4.encode(prefix))"
            if let token { query += "&continuation-token=\(SigV4.encode(token))" }
            let url = URL(string: "\(endpoint.absoluteString.trimmingSuffix("/"))/\(bucket)?\(query)")!
            let response = try await send("GET", url, limit: 4 << 20)
            guard response.status == .ok else {
                throw ObjectStoreUnavailable("listing \(prefix): \(response.status.code) \(response.text)")
            }
            let page = String(decoding: response.body, as: UTF8.self)
            keys += page.matches(of: #/<Key>([^<]*)</Key>/#).map { Self.unescaped(String($0.output.1)) }
            token = page.firstMatch(of: #/<NextContinuationToken>([^<]*)</NextContinuationToken>/#).map {
                Self.unescaped(String($0.output.1))
            }
        } while token != nil
        return keys
    }

    static func unescaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    public func uploadTarget(for key: String, contentType: String, byteSize: Int, expires: Date, now: Date) -> UploadTarget? {
        // Content-Type is signed: the store refuses a PUT of another type. (A presigned PUT cannot
        // sign the length; the module checks the size when the upload is completed.)
        let headers = ["Content-Type": contentType]
        let seconds = max(1, Int(expires.timeIntervalSince(now)))
        return UploadTarget(
            url: signer.presignedURL(method: "PUT", url: url(of: key, at: clientEndpoint), headers: headers, expires: seconds, at: now),
            method: "PUT",
            headers: headers)
    }

    /// Makes the bucket if it is not there (development and tests; production buckets are made by their operator).
    public func createBucket() async throws {
        // Outside us-east-1, S3 wants the bucket's region in the body (CreateBucketConfiguration).
        let body =
            signer.region == "us-east-1"
            ? Data()
            : Data(
                """
                <CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\
                <LocationConstraint>\(signer.region)</LocationConstraint></CreateBucketConfiguration>
                """.utf8)
        let response = try await send("PUT", URL(string: "\(endpoint.absoluteString.trimmingSuffix("/"))/\(bucket)")!, body: body)
        guard [.ok, .conflict].contains(response.status) else {
            throw ObjectStoreUnavailable("creating bucket \(bucket): \(response.status.code) \(response.text)")
        }
    }

    /// Lets anyone read the objects under `prefix` (a bucket policy, PutBucketPolicy): where public
    /// sizes are read straight from the bucket. Development and tests; an operator sets production's.
    public func allowPublicReads(under prefix: String) async throws {
        let policy = """
            {"Version":"2012-10-17","Statement":[{"Sid":"PublicRead","Effect":"Allow","Principal":"*","Action":"s3:GetObject",\
            "Resource":"arn:aws:s3:::\(bucket)/\(prefix)*"}]}
            """
        let url = URL(string: "\(endpoint.absoluteString.trimmingSuffix("/"))/\(bucket)?policy=")!
        let response = try await send("PUT", url, headers: ["Content-Type": "application/json"], body: Data(policy.utf8))
        guard [.ok, .noContent].contains(response.status) else {
            throw ObjectStoreUnavailable("setting the policy of \(bucket): \(response.status.code) \(response.text)")
        }
    }

    struct Answer {
        var status: HTTPResponseStatus
        var body: Data
        var text: String { String(decoding: body.prefix(300), as: UTF8.self) }
    }

    private func send(_ method: String, _ url: URL, headers: [String: String] = [:], body: Data = Data(), limit: Int = 64 << 10)
        async throws -> Answer
    {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        let signed = signer.signedHeaders(method: method, url: url, headers: headers, payloadHash: SigV4.payloadHash(body), at: now())
        for (name, value) in signed { request.headers.replaceOrAdd(name: name, value: value) }
        if !body.isEmpty || method == "PUT" { request.body = .bytes(ByteBuffer(data: body)) }
        do {
            let response = try await httpClient.execute(request, timeout: .init(timeout))
            let bytes = try await response.body.collect(upTo: limit)
            return Answer(status: response.status, body: Data(buffer: bytes))
        } catch let error as ObjectStoreUnavailable {
            throw error
        } catch {
            throw ObjectStoreUnavailable("\(method) \(url.path): \(error)")
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
