public import Crypto
public import Foundation

/// AWS Signature Version 4 as S3 and the stores that speak its protocol (MinIO, Ceph, R2, moto)
/// check it: a request signed in its `Authorization` header, or a URL presigned in its query.
/// <https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html>
///
/// Written here because no maintained S3 package resolves for this project (Soto is not among its
/// packages); the algorithm is sixty lines, and `SigV4Tests` holds it to the worked examples in
/// AWS's documentation.
public struct SigV4: Sendable {
    public let accessKey: String
    let secretKey: String
    public let region: String
    let service: String

    /// The payload hash of a presigned URL: the bytes are not known when it is made.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"

    public init(accessKey: String, secretKey: String, region: String, service: String = "s3") {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.region = region
        self.service = service
    }

    /// The headers to add to a request of `method` to `url` carrying `headers` and a payload whose
    /// SHA-256 is `payloadHash`: `x-amz-date`, `x-amz-content-sha256` and `Authorization` (which
    /// signs `host` and every header given).
    public func signedHeaders(
        method: String, url: URL, headers: [String: String] = [:], payloadHash: String, at date: Date
    ) -> [String: String] {
        let amzDate = Self.timestamp(date)
        var signed = headers
        signed["x-amz-date"] = amzDate
        signed["x-amz-content-sha256"] = payloadHash
        let (canonical, names) = canonicalRequest(
            method: method, url: url, query: Self.query(of: url), headers: signed, payload: payloadHash)
        let signature = sign(canonical, amzDate: amzDate)
        signed["Authorization"] =
            "AWS4-HMAC-SHA256 Credential=\(accessKey)/\(scope(amzDate)), SignedHeaders=\(names), Signature=\(signature)"
        return signed
    }

    /// `url` with the query that lets whoever holds it make a `method` request until `expires`
    /// seconds after `date`, with `headers` (besides `host`) exactly as given.
    public func presignedURL(method: String, url: URL, headers: [String: String] = [:], expires: Int, at date: Date) -> URL {
        let amzDate = Self.timestamp(date)
        let names = (["host"] + headers.keys.map { $0.lowercased() }).sorted().joined(separator: ";")
        var query = Self.query(of: url)
        query["X-Amz-Algorithm"] = "AWS4-HMAC-SHA256"
        query["X-Amz-Credential"] = "\(accessKey)/\(scope(amzDate))"
        query["X-Amz-Date"] = amzDate
        query["X-Amz-Expires"] = String(expires)
        query["X-Amz-SignedHeaders"] = names
        let (canonical, _) = canonicalRequest(method: method, url: url, query: query, headers: headers, payload: Self.unsignedPayload)
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
        // The signature last, as AWS's SDKs and examples write it.
        components.percentEncodedQuery = Self.canonicalQuery(query) + "&X-Amz-Signature=" + sign(canonical, amzDate: amzDate)
        return components.url!
    }

    /// The canonical request and its signed header names (`host` and `headers`, lowercased, sorted).
    func canonicalRequest(
        method: String, url: URL, query: [String: String], headers: [String: String], payload: String
    ) -> (String, String) {
        var all = [String: String]()
        all["host"] = url.port.map { "\(url.host ?? ""):\($0)" } ?? url.host ?? ""
        for (name, value) in headers { all[name.lowercased()] = value.trimmingCharacters(in: .whitespaces) }
        let names = all.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(all[$0]!)\n" }.joined()
        let path =
            url.path.isEmpty
            ? "/"
            : url.path.split(separator: "/", omittingEmptySubsequences: false).map { Self.encode(String($0)) }
                .joined(separator: "/")
        let request = [method, path, Self.canonicalQuery(query), canonicalHeaders, names.joined(separator: ";"), payload]
            .joined(separator: "\n")
        return (request, names.joined(separator: ";"))
    }

    private func sign(_ canonicalRequest: String, amzDate: String) -> String {
        let stringToSign = [
            "AWS4-HMAC-SHA256", amzDate, scope(amzDate), Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8))),
        ].joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(secretKey)".utf8))
        for part in [String(amzDate.prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    private func scope(_ amzDate: String) -> String { "\(amzDate.prefix(8))/\(region)/\(service)/aws4_request" }

    /// `20130524T000000Z`.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!)
    }

    /// RFC 3986: everything but unreserved characters percent-encoded, upper-case hex.
    static func encode(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    static func canonicalQuery(_ query: [String: String]) -> String {
        query.map { (encode($0.key), encode($0.value)) }.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    static func query(of url: URL) -> [String: String] {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }) { _, last in last }
    }

    public static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        digest.map { String(format: "%02x", $0) }.joined()
    }

    public static func payloadHash(_ data: Data) -> String { hex(SHA256.hash(data: data)) }
}
