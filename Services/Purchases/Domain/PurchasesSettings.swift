import Configuration
import Foundation
import ServiceFeatures
import ServiceHTTP
import SwiftASN1
import X509

/// Purchases' configuration. Keys: `purchases.products` (the catalog, `ProductCatalog`; the seed
/// app's four products by default), `purchases.appstore.bundle.id` (the app's bundle id; `app.huddle.ios`, as
/// notify's APNs topic, by default),
/// `purchases.appstore.environment` (`Production`, the default, or `Sandbox`: which App Store's
/// transactions count; Xcode and LocalTesting never do), `purchases.appstore.roots` (PEM
/// certificates the chains must reach; Apple Root CA - G3 by default) or `purchases.appstore.roots.file`
/// (waited for up to a minute: in development the stand-in App Store writes its root there as it starts).
/// The App Store Server API, asked for a restored subscription's latest period, only with a key:
/// `purchases.appstore.api.key` (the `.p8` PEM, or `.key.file`), `.api.key.id`, `.api.issuer.id` and
/// `.api.url` (Apple's production or sandbox host, after the environment, by default).
struct PurchasesSettings: Sendable {
    var catalog: ProductCatalog
    var bundleID: String
    var environment: AppStoreEnvironment
    var roots: [Certificate]
    var serverAPI: AppStoreServerAPI.Settings?

    init(reader: ConfigReader) async throws {
        catalog = try ProductCatalog(reader: reader)
        bundleID = reader.text("purchases.appstore.bundle.id", default: "app.huddle.ios")
        let environment = reader.text("purchases.appstore.environment", default: AppStoreEnvironment.production.rawValue)
        guard let parsed = AppStoreEnvironment(rawValue: environment), parsed == .production || parsed == .sandbox else {
            throw MissingConfiguration(key: "purchases.appstore.environment", hint: "Production or Sandbox")
        }
        self.environment = parsed
        var pem = reader.text("purchases.appstore.roots").flatMap { $0.isEmpty ? nil : $0 }
        if pem == nil, let file = reader.text("purchases.appstore.roots.file"), !file.isEmpty {
            pem = try await Self.contents(of: file, waitingUpTo: .seconds(60))
        }
        do {
            roots = try Self.certificates(in: pem ?? AppleRoots.g3)
        } catch {
            throw MissingConfiguration(key: "purchases.appstore.roots", hint: "PEM certificates: \(error)")
        }
        serverAPI = try Self.serverAPI(reader: reader, bundleID: bundleID, environment: parsed)
    }

    private static func serverAPI(reader: ConfigReader, bundleID: String, environment: AppStoreEnvironment) throws
        -> AppStoreServerAPI.Settings?
    {
        var key = reader.text("purchases.appstore.api.key", isSecret: true)
        if key == nil, let file = reader.text("purchases.appstore.api.key.file") { key = try String(contentsOfFile: file, encoding: .utf8) }
        guard let key else { return nil }
        guard let keyID = reader.text("purchases.appstore.api.key.id"), let issuerID = reader.text("purchases.appstore.api.issuer.id")
        else {
            throw MissingConfiguration(key: "purchases.appstore.api.key.id", hint: "with an API key, its key id and issuer id too")
        }
        let apple = environment == .sandbox ? "https://api.storekit-sandbox.itunes.apple.com" : "https://api.storekit.itunes.apple.com"
        return AppStoreServerAPI.Settings(
            baseURL: reader.text("purchases.appstore.api.url", default: apple), privateKeyPEM: key, keyID: keyID, issuerID: issuerID,
            bundleID: bundleID)
    }

    init(catalog: ProductCatalog, bundleID: String, environment: AppStoreEnvironment, roots: [Certificate]) {
        self.catalog = catalog
        self.bundleID = bundleID
        self.environment = environment
        self.roots = roots
        serverAPI = nil
    }

    /// A file's text once it exists.
    private static func contents(of file: String, waitingUpTo patience: Duration) async throws -> String {
        let deadline = ContinuousClock.now + patience
        while !FileManager.default.fileExists(atPath: file), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(250))
        }
        return try String(contentsOfFile: file, encoding: .utf8)
    }

    static func certificates(in pem: String) throws -> [Certificate] {
        let certificates = try PEMDocument.parseMultiple(pemString: pem).map { try Certificate(pemDocument: $0) }
        guard !certificates.isEmpty else { throw MissingConfiguration(key: "purchases.appstore.roots", hint: "no certificate") }
        return certificates
    }
}

/// Apple's public root for App Store data, from https://www.apple.com/certificateauthority/
/// (SHA-256 63:34:3A:BF:B8:9A:6A:03:EB:B5:7E:9B:3F:5F:A7:BE:7C:4F:5C:75:6F:30:17:B3:A8:C4:88:C3:65:3E:91:79).
enum AppleRoots {
    static let g3 = """
        -----BEGIN CERTIFICATE-----
        MIICQzCCAcmgAwIBAgIILcX8iNLFS5UwCgYIKoZIzj0EAwMwZzEbMBkGA1UEAwwS
        QXBwbGUgUm9vdCBDQSAtIEczMSYwJAYDVQQLDB1BcHBsZSBDZXJ0aWZpY2F0aW9u
        IEF1dGhvcml0eTETMBEGA1UECgwKQXBwbGUgSW5jLjELMAkGA1UEBhMCVVMwHhcN
        MTQwNDMwMTgxOTA2WhcNMzkwNDMwMTgxOTA2WjBnMRswGQYDVQQDDBJBcHBsZSBS
        b290IENBIC0gRzMxJjAkBgNVBAsMHUFwcGxlIENlcnRpZmljYXRpb24gQXV0aG9y
        aXR5MRMwEQYDVQQKDApBcHBsZSBJbmMuMQswCQYDVQQGEwJVUzB2MBAGByqGSM49
        AgEGBSuBBAAiA2IABJjpLz1AcqTtkyJygRMc3RCV8cWjTnHcFBbZDuWmBSp3ZHtf
        TjjTuxxEtX/1H7YyYl3J6YRbTzBPEVoA/VhYDKX1DyxNB0cTddqXl5dvMVztK517
        IDvYuVTZXpmkOlEKMaNCMEAwHQYDVR0OBBYEFLuw3qFYM4iapIqZ3r6966/ayySr
        MA8GA1UdEwEB/wQFMAMBAf8wDgYDVR0PAQH/BAQDAgEGMAoGCCqGSM49BAMDA2gA
        MGUCMQCD6cHEFl4aXTQY2e3v9GwOAEZLuN+yRhHFD/3meoyhpmvOwgPUnPWTxnS4
        at+qIxUCMG1mihDK1A3UT82NQz60imOlM27jbdoXt2QfyFMm+YhidDkLF1vLUagM
        6BgD56KyKA==
        -----END CERTIFICATE-----
        """
}
