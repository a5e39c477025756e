public import Configuration
import Foundation
import HuddleEffects
public import Hummingbird
public import Logging
import NIOCore

/// A stand-in for the outside providers, for development and tests. Facebook's Graph API: it
/// issues user tokens on request and answers `debug_token` and `me` for them with Facebook's field
/// names, so auth's real HTTP verifier runs unchanged against it. Open-Meteo's current weather
/// (`WeatherStandIn`), so catalog's real weather adapter does too.
///
/// - `POST /test/tokens {userId, name, email?, appId?, expiresIn?}` → `{accessToken}`
/// - `GET /debug_token?input_token=&access_token=` → `{data: {is_valid, app_id, user_id, expires_at}}`
/// - `GET /me?fields=id,name,email&access_token=` → `{id, name, email}`
/// - `GET /v1/forecast?latitude=&longitude=&current_weather=true` → Open-Meteo's answer
/// - `GET /search?postalcode=&countrycode=&format=jsonv2` → Nominatim's places (`GeocodingStandIn`)
/// - `GET /api/explore/v2.1/catalog/datasets/sports-grounds/records` → Casey's grounds (`OpenDataStandIn`)
/// - API-Football v3 (`/fixtures`, `/odds`) and its test controls (`FootballStandIn`)
/// - with `appStore`, the App Store's test controls (`AppStoreStandIn`)
/// - with `appleID`, Sign in with Apple's key set and controls (`AppleIDStandIn`)
/// - with `google`, Sign in with Google's key set and controls (`GoogleStandIn`)
/// - an OpenTelemetry collector's `POST /v1/traces` (OTLP/HTTP JSON) and `GET /test/traces/{traceId}` (`OTLPStandIn`)
/// - what `mail`'s SMTP relay (`SMTPStandIn`) took: `GET /test/mail?to=`, and `POST /test/mail/outage`
///
/// Keys: `standin.http.host`, `standin.http.port` (default 8090), `standin.appid`
/// (default `huddle-dev-app`: the app id tokens are issued to unless a request names another),
/// `standin.football.key` (default `huddle-dev-football-key`), `standin.football.perminute` (300),
/// `standin.football.matchday.seed` (a simulated matchday from this seed; none when absent) and
/// `standin.football.matchday.speed` (match minutes per real minute, default 10) and
/// `standin.football.matchday.file` (where the matchday's start is kept, so a restart continues it).
public func buildProviderStandIns(
    reader: ConfigReader, logger: Logger, pushes: PushRecorder = PushRecorder(), appStore: AppStoreStandIn? = nil,
    appleID: AppleIDStandIn? = nil, google: GoogleStandIn? = nil, mail: MailRecorder = MailRecorder(),
    onListening: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let tokens = StubTokens(defaultAppID: reader.string(forKey: "standin.appid", default: "huddle-dev-app"))
    let router = Router()
    router.get("health") { _, _ in "ok" }
    WeatherStandIn.add(to: router)
    GeocodingStandIn.add(to: router)
    OpenDataStandIn.add(to: router)
    PushInspection.add(to: router, pushes: pushes)
    FCMStandIn(reader: reader, pushes: pushes).add(to: router)
    let football = FootballStandIn(
        key: reader.string(forKey: "standin.football.key", default: "huddle-dev-football-key"),
        perMinute: reader.int(forKey: "standin.football.perminute", default: 300))
    football.add(to: router)
    appStore?.add(to: router)
    appleID?.add(to: router)
    google?.add(to: router)
    OTLPStandIn().add(to: router)
    mail.add(to: router)
    let matchdaySeed = reader.int(forKey: "standin.football.matchday.seed")
    let speed = reader.double(forKey: "standin.football.matchday.speed", default: 10)
    let matchdayFile = reader.string(forKey: "standin.football.matchday.file")
    router.post("test/tokens") { request, context in
        let grant = try await request.decode(as: StubTokens.Grant.self, context: context)
        return ["accessToken": await tokens.issue(grant)]
    }
    router.get("debug_token") { request, _ -> DebugTokenResponse in
        let token = request.uri.queryParameters["input_token"].map(String.init) ?? ""
        guard let grant = await tokens.grant(for: token) else {
            return DebugTokenResponse(data: .init(isValid: false, appID: nil, userID: nil, expiresAt: nil))
        }
        return DebugTokenResponse(
            data: .init(
                isValid: grant.expiresAt > Effects.system.now(), appID: grant.appID, userID: grant.userId,
                expiresAt: Int(grant.expiresAt.timeIntervalSince1970)))
    }
    router.get("me") { request, _ -> Profile in
        let token = request.uri.queryParameters["access_token"].map(String.init) ?? ""
        guard let grant = await tokens.grant(for: token), grant.expiresAt > Effects.system.now() else {
            throw HTTPError(.badRequest, message: "Invalid OAuth access token.")
        }
        let fields = (request.uri.queryParameters["fields"].map(String.init) ?? "").split(separator: ",")
        // As the Graph API: the default silhouette's URL when there is no picture, marked as such.
        let picture = Profile.Picture(
            data: .init(
                url: grant.pictureUrl ?? "https://static.xx.fbcdn.net/rsrc.php/v1/yi/r/odA9sNLrE86.jpg",
                isSilhouette: grant.pictureUrl == nil))
        return Profile(
            id: grant.userId, name: grant.name, email: grant.email, picture: fields.contains { $0.hasPrefix("picture") } ? picture : nil)
    }
    return Application(
        router: router,
        configuration: .init(
            address: .hostname(
                reader.string(forKey: "standin.http.host", default: "127.0.0.1"),
                port: reader.int(forKey: "standin.http.port", default: 8090)),
            serverName: "huddle-stand-in"),
        onServerRunning: { channel in
            if let matchdaySeed {
                await football.simulate(seed: UInt64(max(0, matchdaySeed)), speed: max(1, speed), continuing: matchdayFile)
            }
            if let port = channel.localAddress?.port { await onListening(port) }
        },
        logger: logger)
}

actor StubTokens {
    struct Grant: Codable, Sendable {
        var userId: String
        var name: String
        var email: String?
        var appId: String?
        /// Seconds; negative issues an already expired token.
        var expiresIn: Int?
        /// The profile picture's URL; none: Facebook's default silhouette.
        var pictureUrl: String?
    }

    struct Issued: Sendable {
        var userId: String
        var name: String
        var email: String?
        var appID: String
        var expiresAt: Date
        var pictureUrl: String?
    }

    private let defaultAppID: String
    private var issued: [String: Issued] = [:]

    init(defaultAppID: String) { self.defaultAppID = defaultAppID }

    func issue(_ grant: Grant) -> String {
        let token = "stub-" + UUID().uuidString.lowercased()
        issued[token] = Issued(
            userId: grant.userId, name: grant.name, email: grant.email, appID: grant.appId ?? defaultAppID,
            expiresAt: Effects.system.now().addingTimeInterval(TimeInterval(grant.expiresIn ?? 3600)), pictureUrl: grant.pictureUrl)
        return token
    }

    func grant(for token: String) -> Issued? { issued[token] }
}

// Field names are Facebook's.
struct DebugTokenResponse: ResponseEncodable {
    struct Data: Codable {
        var isValid: Bool
        var appID: String?
        var userID: String?
        var expiresAt: Int?

        enum CodingKeys: String, CodingKey {
            case isValid = "is_valid", appID = "app_id", userID = "user_id", expiresAt = "expires_at"
        }
    }
    var data: Data
}

struct Profile: ResponseEncodable {
    struct Picture: Codable {
        struct Data: Codable {
            var url: String
            var isSilhouette: Bool
            enum CodingKeys: String, CodingKey {
                case url, isSilhouette = "is_silhouette"
            }
        }
        var data: Data
    }

    var id: String
    var name: String
    var email: String?
    var picture: Picture?
}

extension Response {
    /// `value` as JSON with `status`, as the providers' APIs answer.
    static func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder().encode(value))))
    }
}
