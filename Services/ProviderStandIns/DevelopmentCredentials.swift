import Crypto
import CryptoExtras
import Foundation

/// A provider key for development: the private half for notify, the public half for the stand-in,
/// made fresh at each start so no key is ever committed.
public struct DevelopmentAPNsKey: Sendable {
    public let keyID = "HUDDLEDEV1"
    public let teamID = "HUDDLETEAM"
    public let privateKeyPEM: String
    public let publicKeyPEM: String

    public init() { (privateKeyPEM, publicKeyPEM) = developmentP256Key() }

    /// Settings that make notify push to the stand-in at `url`, trusting its certificate.
    public func settings(standInURL url: String, certificateFile: String) -> [String: String] {
        [
            "notify.apns.url": url, "notify.apns.sandbox.url": url, "notify.apns.key": privateKeyPEM, "notify.apns.key.id": keyID,
            "notify.apns.team.id": teamID, "notify.apns.trust.file": certificateFile, "standin.apns.key": publicKeyPEM,
            "standin.apns.key.id": keyID, "standin.apns.team.id": teamID, "standin.apns.cert.file": certificateFile,
        ]
    }
}

/// A service account for development: its JSON key (with a private RSA key) for notify, the
/// public half for the stand-in's token endpoint; made fresh at each start.
public struct DevelopmentFCMAccount: Sendable {
    public let clientEmail = "notify@huddle-dev.iam.gserviceaccount.com"
    public let project = "huddle-dev"
    public let privateKeyPEM: String
    public let publicKeyPEM: String

    public init() throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        privateKeyPEM = key.pemRepresentation
        publicKeyPEM = key.publicKey.pemRepresentation
    }

    /// Settings that make notify push to the stand-in at `url` (its `/token` and `messages:send`).
    public func settings(standInURL url: String) throws -> [String: String] {
        let credentials: [String: String] = [
            "type": "service_account", "project_id": project, "client_email": clientEmail, "private_key": privateKeyPEM,
            "token_uri": "\(url)/token",
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: credentials, options: [.sortedKeys]), as: UTF8.self)
        return [
            "notify.fcm.url": url, "notify.fcm.credentials": json, "standin.fcm.key": publicKeyPEM, "standin.fcm.client.email": clientEmail,
            "standin.fcm.project": project,
        ]
    }
}

/// An App Store Server API key for development: the private half for purchases, the public half
/// for the stand-in App Store; made fresh at each start.
public struct DevelopmentAppStoreKey: Sendable {
    public let keyID = "HUDDLEIAP1"
    public let issuerID = "57246542-96fe-1a63-e053-0824d0110000"
    public let privateKeyPEM: String
    public let publicKeyPEM: String

    public init() { (privateKeyPEM, publicKeyPEM) = developmentP256Key() }

    /// What the stand-in App Store checks bearer tokens against.
    public var registered: AppStoreServerAPIKey { AppStoreServerAPIKey(publicKeyPEM: publicKeyPEM, keyID: keyID, issuerID: issuerID) }

    /// Settings that make purchases ask the stand-in at `url` for transaction histories.
    public func settings(standInURL url: String) -> [String: String] {
        [
            "purchases.appstore.api.url": url, "purchases.appstore.api.key": privateKeyPEM, "purchases.appstore.api.key.id": keyID,
            "purchases.appstore.api.issuer.id": issuerID,
        ]
    }
}

/// A P-256 key pair as PEM, private half first: what Apple's ES256 keys (`.p8`) are.
private func developmentP256Key() -> (String, String) {
    let key = P256.Signing.PrivateKey()
    return (key.pemRepresentation, key.publicKey.pemRepresentation)
}

/// A Sign in with Apple key for development: the private half for auth (its client secrets), the
/// public half for the stand-in's token endpoint; made fresh at each start, with a key that seals
/// Apple's refresh tokens.
public struct DevelopmentAppleKey: Sendable {
    public let keyID = "HUDDLESIWA"
    public let teamID = "HUDDLETEAM"
    public let privateKeyPEM: String
    public let publicKeyPEM: String
    public let refreshKey = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()

    public init() { (privateKeyPEM, publicKeyPEM) = developmentP256Key() }

    /// What the stand-in checks client secrets against, for `clientIDs`.
    public func registered(clientIDs: Set<String>) -> AppleClientKey {
        AppleClientKey(publicKeyPEM: publicKeyPEM, keyID: keyID, teamID: teamID, clientIDs: clientIDs)
    }

    /// Settings that make auth exchange codes for `clientID` at the stand-in at `url`.
    public func settings(standInURL url: String, clientID: String) -> [String: String] {
        [
            "auth.oauth.apple.url": url, "auth.oauth.apple.audiences": clientID, "auth.oauth.apple.client.id": clientID,
            "auth.oauth.apple.key": privateKeyPEM, "auth.oauth.apple.key.id": keyID, "auth.oauth.apple.team.id": teamID,
            "auth.oauth.apple.refresh.key": refreshKey,
        ]
    }
}
