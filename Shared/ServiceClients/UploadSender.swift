import AsyncHTTPClient
public import Contracts
public import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1

/// Sends an upload's bytes where its ticket says (a bucket's presigned URL, or media's own), with
/// exactly its method and headers, as an app does: for the demo, the benchmarks and the tests.
public enum UploadSender {
    /// The status the upload URL answered.
    public static func send(_ bytes: Data, with ticket: UploadTicket, timeout: Duration = .seconds(60)) async throws -> UInt {
        var request = HTTPClientRequest(url: ticket.uploadUrl)
        request.method = .RAW(value: ticket.method)
        for (name, value) in ticket.headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(data: bytes))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(Int64(timeout.components.seconds)))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }
}
