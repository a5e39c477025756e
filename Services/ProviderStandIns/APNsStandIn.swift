public import Configuration
import Crypto
import Foundation
import HTTPTypes
import HuddleEffects
public import Hummingbird
import HummingbirdHTTP2
import JWTKit
public import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOFoundationCompat
import NIOSSL
import SwiftASN1
import X509

/// APNs's provider API as Apple documents it ("Sending notification requests to APNs"), over HTTP/2
/// and TLS with a certificate made at start: `POST /3/device/<token>` with an ES256 provider token.
/// It checks what APNs checks — the token's signature, key id, team and age, the topic, the push
/// type, the payload's size and shape — answers with APNs's statuses and reasons, and records every
/// attempt in a `PushRecorder` (listed by the main stand-in under `/test/apns/...`).
///
/// Keys: `standin.apns.http.port` (8091), `standin.apns.key` (the provider's public key, PEM),
/// `standin.apns.key.id`, `standin.apns.team.id`, `standin.apns.topics` (comma-separated bundle ids;
/// default `app.huddle.ios`), `standin.apns.cert.file` (where the certificate's PEM is written, for
/// clients to trust).
public func buildAPNsStandIn(
    reader: ConfigReader, logger: Logger, pushes: PushRecorder, onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let identity = try await StandInCertificate.make(hosts: ["localhost", "127.0.0.1"])
    if let file = reader.string(forKey: "standin.apns.cert.file") {
        try identity.certificatePEM.write(toFile: file, atomically: true, encoding: .utf8)
    }
    let keys = JWTKeyCollection()
    if let pem = reader.string(forKey: "standin.apns.key", isSecret: true) {
        await keys.add(
            ecdsa: try ES256PublicKey(pem: pem), kid: JWKIdentifier(string: reader.string(forKey: "standin.apns.key.id", default: "")))
    }
    let checks = APNsChecks(
        keys: keys, teamID: reader.string(forKey: "standin.apns.team.id", default: ""),
        topics: Set(reader.string(forKey: "standin.apns.topics", default: "app.huddle.ios").split(separator: ",").map(String.init)),
        pushes: pushes)
    let router = Router()
    router.post("3/device/:token") { request, context in try await checks.answer(request, context: context) }
    var tls = TLSConfiguration.makeServerConfiguration(
        certificateChain: [.certificate(identity.certificate)], privateKey: .privateKey(identity.privateKey))
    tls.applicationProtocols = ["h2", "http/1.1"]
    return Application(
        router: router, server: try .http2Upgrade(tlsConfiguration: tls),
        configuration: .init(
            address: .hostname(
                reader.string(forKey: "standin.http.host", default: "127.0.0.1"),
                port: reader.int(forKey: "standin.apns.http.port", default: 8091)),
            serverName: "apns-stand-in"),
        onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: logger)
}

/// What APNs refuses, and why, in the order it looks.
struct APNsChecks: Sendable {
    let keys: JWTKeyCollection
    let teamID: String
    let topics: Set<String>
    let pushes: PushRecorder
    /// Provider tokens whose signature checked out, with their claims: a provider reuses one token
    /// for up to an hour, and verifying its ES256 signature on every push took 18% of the stand-in's
    /// CPU at 1,200 pushes a second (perf). The claims are checked on every push all the same.
    private let verified = NIOLockedValueBox<[String: ProviderClaims]>([:])

    init(keys: JWTKeyCollection, teamID: String, topics: Set<String>, pushes: PushRecorder) {
        self.keys = keys
        self.teamID = teamID
        self.topics = topics
        self.pushes = pushes
    }

    struct ProviderClaims: JWTPayload {
        var iss: IssuerClaim
        var iat: IssuedAtClaim
        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    func answer(_ request: Request, context: some RequestContext) async throws -> Response {
        let token = context.parameters.get("token") ?? ""
        let body = try await request.body.collect(upTo: 1 << 20)
        let payload = String(buffer: body)
        var headers: [String: String] = [:]
        for field in request.headers where field.name.canonicalName.hasPrefix("apns-") { headers[field.name.canonicalName] = field.value }
        let refusal = await refusal(request, token: token, payload: body)
        pushes.record(
            .init(token: token, headers: headers, payload: payload, status: refusal?.status ?? 200, reason: refusal?.reason),
            service: "apns")
        guard let refusal else {
            return Response(status: .ok, headers: [HTTPField.Name("apns-id")!: UUID().uuidString])
        }
        var answer = ["reason": refusal.reason]
        if refusal.status == 410 { answer["timestamp"] = String(Int(Effects.system.now().timeIntervalSince1970 * 1000)) }
        return Response(
            status: HTTPResponse.Status(code: refusal.status), headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(data: try JSONEncoder().encode(answer))))
    }

    private func refusal(_ request: Request, token: String, payload: ByteBuffer) async -> (status: Int, reason: String)? {
        guard let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("bearer ") else {
            return (403, "MissingProviderToken")
        }
        do {
            let claims = try await verify(String(authorization.dropFirst(7)))
            guard claims.iss.value == teamID else { return (403, "InvalidProviderToken") }
            // Apple refuses a token issued more than an hour ago.
            guard Effects.system.now().timeIntervalSince(claims.iat.value) < 3600 else { return (403, "ExpiredProviderToken") }
        } catch {
            return (403, "InvalidProviderToken")
        }
        guard token.count >= 64, token.count.isMultiple(of: 2), token.allSatisfy(\.isHexDigit) else { return (400, "BadDeviceToken") }
        guard let topic = request.headers[HTTPField.Name("apns-topic")!] else { return (400, "MissingTopic") }
        guard topics.contains(topic) else { return (400, "DeviceTokenNotForTopic") }
        guard let type = request.headers[HTTPField.Name("apns-push-type")!], ["alert", "background"].contains(type) else {
            return (400, "InvalidPushType")
        }
        if let priority = request.headers[HTTPField.Name("apns-priority")!], !["5", "10"].contains(priority) {
            return (400, "BadPriority")
        }
        if let collapse = request.headers[HTTPField.Name("apns-collapse-id")!], collapse.utf8.count > 64 { return (400, "BadCollapseId") }
        guard payload.readableBytes <= 4096 else { return (413, "PayloadTooLarge") }
        guard let json = try? JSONSerialization.jsonObject(with: Data(buffer: payload)) as? [String: Any], json["aps"] is [String: Any]
        else {
            return (400, "PayloadEmpty")
        }
        if pushes.isUnregistered(token) { return (410, "Unregistered") }
        return nil
    }
}

extension APNsChecks {
    /// The token's claims once its signature is verified (a token seen before is not verified again).
    fileprivate func verify(_ token: String) async throws -> ProviderClaims {
        if let claims = verified.withLockedValue({ $0[token] }) { return claims }
        let claims = try await keys.verify(token, as: ProviderClaims.self)
        // A provider renews its token every 20 to 60 minutes: only a handful are ever current.
        verified.withLockedValue { known in
            if known.count >= 64 { known.removeAll() }
            known[token] = claims
        }
        return claims
    }
}

/// A self-signed certificate and its key, made at start (P-256, valid for a year).
struct StandInCertificate {
    let certificate: NIOSSLCertificate
    let privateKey: NIOSSLPrivateKey
    let certificatePEM: String

    static func make(hosts: [String]) async throws -> StandInCertificate {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("Huddle stand-in") }
        let names: [GeneralName] = hosts.map { host in
            if let address = IPv4Address(host) { return .ipAddress(ASN1OctetString(contentBytes: ArraySlice(address.bytes))) }
            return .dnsName(host)
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: Effects.system.now().addingTimeInterval(-60),
            notValidAfter: Effects.system.now().addingTimeInterval(365 * 86_400), issuer: name, subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                SubjectAlternativeNames(names)
            },
            issuerPrivateKey: .init(key))
        let pem = try certificate.serializeAsPEM().pemString
        return StandInCertificate(
            certificate: try NIOSSLCertificate(bytes: Array(pem.utf8), format: .pem),
            privateKey: try NIOSSLPrivateKey(bytes: Array(key.pemRepresentation.utf8), format: .pem), certificatePEM: pem)
    }
}

/// Four dotted decimal bytes.
private struct IPv4Address {
    let bytes: [UInt8]
    init?(_ text: String) {
        let parts = text.split(separator: ".").compactMap { UInt8($0) }
        guard parts.count == 4 else { return nil }
        bytes = parts
    }
}
