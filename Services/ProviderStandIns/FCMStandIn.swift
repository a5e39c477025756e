import Configuration
import Foundation
import HTTPTypes
import HuddleEffects
import Hummingbird
import JWTKit
import NIOCore
import NIOFoundationCompat

/// FCM's HTTP v1 API and Google's OAuth2 token endpoint, as Firebase documents them:
/// `POST /token` takes a service account's signed JWT (the jwt-bearer grant) and answers an access
/// token for an hour; `POST /v1/projects/<project>/messages:send` takes a message with that token.
/// It checks what they check — the assertion's RS256 signature, issuer, scope and age, the bearer,
/// the project, the message's token and size — answers with FCM's error shape (`UNREGISTERED`,
/// `INVALID_ARGUMENT`, `SENDER_ID_MISMATCH`, `UNAUTHENTICATED`) and records every attempt.
///
/// Keys: `standin.fcm.key` (the service account's public key, PEM), `standin.fcm.client.email`,
/// `standin.fcm.project`.
actor FCMStandIn {
    private let publicKeyPEM: String?
    private let clientEmail: String
    private let project: String
    private let pushes: PushRecorder
    private let keys = JWTKeyCollection()
    private var prepared = false
    private var issued: [String: Date] = [:]

    init(reader: ConfigReader, pushes: PushRecorder) {
        publicKeyPEM = reader.string(forKey: "standin.fcm.key", isSecret: true)
        clientEmail = reader.string(forKey: "standin.fcm.client.email", default: "")
        project = reader.string(forKey: "standin.fcm.project", default: "huddle-dev")
        self.pushes = pushes
    }

    nonisolated func add(to router: Router<BasicRequestContext>) {
        router.post("token") { request, _ in try await self.exchange(request) }
        router.post("v1/projects/:project/messages:send") { request, context in
            try await self.send(request, project: context.parameters.get("project") ?? "")
        }
        router.post("test/fcm/tokens/:token/unregister") { _, context -> HTTPResponse.Status in
            self.pushes.unregister(context.parameters.get("token") ?? "")
            return .noContent
        }
        router.get("test/fcm/token-exchanges") { _, _ in ["count": await self.exchanges] }
    }

    private var exchanges: Int { issued.count }

    struct Assertion: JWTPayload {
        var iss: IssuerClaim
        var scope: String
        var aud: AudienceClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) throws { try exp.verifyNotExpired() }
    }

    private func exchange(_ request: Request) async throws -> Response {
        if !prepared, let publicKeyPEM {
            await keys.add(rsa: try Insecure.RSA.PublicKey(pem: publicKeyPEM), digestAlgorithm: .sha256)
            prepared = true
        }
        let form = String(buffer: try await request.body.collect(upTo: 64 * 1024))
        var fields: [String: String] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"] else {
            return Self.json(400, ["error": "unsupported_grant_type"])
        }
        guard let claims = try? await keys.verify(assertion, as: Assertion.self), claims.iss.value == clientEmail,
            claims.scope.split(separator: " ").contains("https://www.googleapis.com/auth/firebase.messaging"),
            Effects.system.now().timeIntervalSince(claims.iat.value) < 3600
        else { return Self.json(400, ["error": "invalid_grant"]) }
        let token = "ya29.standin-" + UUID().uuidString
        issued[token] = Effects.system.now().addingTimeInterval(3600)
        return Self.json(200, ["access_token": token, "expires_in": 3599, "token_type": "Bearer"])
    }

    private func send(_ request: Request, project: String) async throws -> Response {
        let body = try await request.body.collect(upTo: 1 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
        let message = json?["message"] as? [String: Any]
        let token = message?["token"] as? String ?? ""
        let refusal = refusal(request, project: project, message: message, token: token, size: body.readableBytes)
        var headers: [String: String] = [:]
        if let android = message?["android"] as? [String: Any] {
            for (key, value) in android { headers["android.\(key)"] = "\(value)" }
        }
        pushes.record(
            .init(token: token, headers: headers, payload: String(buffer: body), status: refusal?.status ?? 200, reason: refusal?.code),
            service: "fcm")
        guard let refusal else { return Self.json(200, ["name": "projects/\(project)/messages/\(UUID().uuidString)"]) }
        var error: [String: Any] = [
            "code": refusal.status, "status": refusal.status == 404 ? "NOT_FOUND" : refusal.code, "message": refusal.code,
        ]
        if refusal.status != 401 {
            error["details"] = [["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": refusal.code]]
        }
        return Self.json(refusal.status, ["error": error])
    }

    private func refusal(_ request: Request, project: String, message: [String: Any]?, token: String, size: Int) -> (
        status: Int, code: String
    )? {
        let bearer = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil } ?? ""
        guard let expiry = issued[bearer], expiry > Effects.system.now() else { return (401, "UNAUTHENTICATED") }
        guard project == self.project else { return (403, "SENDER_ID_MISMATCH") }
        guard message != nil, !token.isEmpty else { return (400, "INVALID_ARGUMENT") }
        // FCM takes at most 4 KB of message (notification and data).
        guard size <= 4096 else { return (400, "INVALID_ARGUMENT") }
        if pushes.isUnregistered(token) { return (404, "UNREGISTERED") }
        return nil
    }

    private static func json(_ status: Int, _ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: data)))
    }
}
