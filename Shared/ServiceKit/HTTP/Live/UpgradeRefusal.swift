public import Contracts
import Foundation
public import HTTPTypes
public import Hummingbird
public import HummingbirdWebSocket
public import NIOCore
import NIOHTTP1

/// A live socket's upgrade refused with the reason: the status and problem+json an HTTP request to
/// the same path would get (401 without a valid token, 404 for what the caller cannot see, 422 for a
/// bad `afterVersion`), instead of the bare 400 with no body that the WebSocket server answers a
/// refused upgrade with. It is written before anything is upgraded, and the connection closed.
public enum UpgradeRefusal {
    /// Answers `problem` on `channel`, which must still be in its upgrade negotiation; the connection
    /// then closes.
    public static func refuse(_ problem: Problem, headers extra: HTTPFields = [:], on channel: any Channel) async {
        let body = (try? HuddleJSON.encoder.encode(problem)) ?? Data()
        var headers = HTTPHeaders([
            ("Content-Type", Problem.mediaType), ("Content-Length", String(body.count)), ("Connection", "close"),
        ])
        for field in extra { headers.add(name: field.name.rawName, value: field.value) }
        let status = HTTPResponseStatus(statusCode: problem.status)
        channel.write(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers)), promise: nil)
        channel.write(HTTPServerResponsePart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
        try? await channel.writeAndFlush(HTTPServerResponsePart.end(nil)).get()
        // The WebSocket server then answers the refused upgrade itself (a bare 400) and closes the
        // connection; that answer is dropped, the client has had its own. Closing here instead left the
        // server's upgrade unresolved, which it logged as an error for every refusal.
        try? await channel.pipeline.addHandler(AnsweredAlready(), position: .first).get()
    }

    /// Upgrades when `check` passes; refuses with the problem it throws otherwise (a 401 with the
    /// challenge every 401 carries). What a socket's upgrade needs checked, the route checks here.
    public static func upgrade(
        _ request: Request, on channel: any Channel, after check: () async throws -> Void
    ) async -> RouterShouldUpgrade {
        do {
            try await check()
            return .upgrade([:])
        } catch {
            let failure = (error as? any ProblemError) ?? CommonError.internalError
            var headers = failure.headers
            if failure.problem.status == 401 {
                headers[.wwwAuthenticate] = BearerChallenge.header(tokenSent: request.headers.bearerToken != nil)
            }
            await refuse(failure.problem, headers: headers, on: channel)
            return .dontUpgrade
        }
    }
}

extension TokenVerifier {
    /// The signed-in user of a request's `Authorization`: 401 without a valid token, 503 when auth's
    /// keys cannot be had. For routes that take no `AuthenticatedContext` (a live socket's upgrade).
    public func user(of request: Request) async throws -> UserID {
        guard let identity = try await identity(of: request.headers) else { throw CommonError.unauthorized() }
        return identity.userID
    }
}

/// Drops what is written after the answer a refusal wrote, so a connection carries one answer.
private final class AnsweredAlready: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = Any

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        promise?.succeed(())
    }
}
