import Foundation
import ServiceFeatures
import Testing

/// SigV4 held to the worked examples of "Authenticating Requests: Using the Authorization Header"
/// and "Authenticating Requests: Using Query Parameters" in AWS's S3 API reference (the same keys,
/// bucket, date and signatures as printed there).
@Suite("SigV4")
struct SigV4Tests {
    static let signer = SigV4(accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
    /// 24 May 2013, 00:00:00 UTC.
    static let date = Date(timeIntervalSince1970: 1_369_353_600)
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test("GET Object with a Range header")
    func getObject() throws {
        let headers = Self.signer.signedHeaders(
            method: "GET", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")),
            headers: ["Range": "bytes=0-9"], payloadHash: Self.emptyHash, at: Self.date)
        #expect(headers["x-amz-date"] == "20130524T000000Z")
        #expect(
            headers["Authorization"]
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, "
                + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("PUT Object with a Date, a storage class and a key that needs escaping")
    func putObject() throws {
        let body = Data("Welcome to Amazon S3.".utf8)
        let headers = Self.signer.signedHeaders(
            method: "PUT", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test$file.text")),
            headers: ["Date": "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY"],
            payloadHash: SigV4.payloadHash(body), at: Self.date)
        #expect(headers["x-amz-content-sha256"] == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        #expect(
            headers["Authorization"]?.hasSuffix(
                "SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, "
                    + "Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd") == true)
    }

    @Test("a presigned GET valid for a day")
    func presigned() throws {
        let url = Self.signer.presignedURL(
            method: "GET", url: try #require(URL(string: "https://examplebucket.s3.amazonaws.com/test.txt")), expires: 86_400,
            at: Self.date)
        #expect(
            url.absoluteString
                == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
                + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test("object keys: letters, digits and -_./ in non-empty segments, never . or ..")
    func keys() {
        #expect(ObjectKey.isValid("media/0193/large-ab12.jpg"))
        for bad in ["", "/a", "a/", "a//b", "../etc/passwd", "a/./b", "a b", "ä", "a?b"] { #expect(!ObjectKey.isValid(bad), "\(bad)") }
    }
}
