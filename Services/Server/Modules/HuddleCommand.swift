public import ArgumentParser
import Configuration
import Contracts
import Foundation
import Logging
import ModuleLauncher
import ProviderStandIns
import ServiceHTTP
import ServiceLifecycle
import UnixSignals

/// `swift run huddle`: the whole stack in one process, each module on its own loopback port and
/// talking to the others over HTTP, with SQLite files under `data/`, the outside providers' stand-in, and demo data.
public struct HuddleCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "huddle",
        abstract: "Run the Huddle backend: every module in one process, gateway on :8080.",
        discussion: """
            Any configuration key can be set with --set key=value or its environment variable
            (auth.db.url ↔ AUTH_DB_URL). Keys are listed in README.md.
            """,
        subcommands: [
            DemoCommand.self, ComposeCommand.self, InternalKeysCommand.self, ImportCommand.self, BackupCommand.self, RestoreCommand.self,
        ])

    @Option(help: "Modules to run: 'all' or a comma-separated list (\(ServiceModule.allCases.map(\.rawValue).joined(separator: ","))).")
    var modules = "all"

    /// `--data-dir`, `--set`, `--log-level`: shared with the subcommands that open the same stores
    /// (`huddle import`), which read them through the same group.
    @OptionGroup var store: StoreOptions
    var dataDir: String { store.dataDir }
    var set: [String] { store.set }
    var logLevel: String { store.logLevel }

    @Flag(inversion: .prefixedNo, help: "Create demo users on first start and print their credentials.")
    var demo = true

    @Flag(
        inversion: .prefixedNo,
        help:
            """
            Run the providers' stand-ins and point the modules at them: on port 8090 Facebook, Sign in with Apple, the App \
            Store, weather, a football matchday (fixtures, live events, odds), FCM and a trace collector; on port 8091 APNs.
            """
    )
    var standIn = true

    @Flag(name: .customLong("print-openapi"), help: "Print the OpenAPI document the gateway serves, and exit.")
    var printOpenAPI = false

    public init() {}

    public func run() async throws {
        if printOpenAPI {
            FileHandle.standardOutput.write(try OpenAPIDocument.json())
            return
        }
        let modules = try HuddleModules.resolve(self.modules)
        // A fresh clone has no `data/`; the stand-in writes its certificate there before any store opens.
        try FileManager.default.createDirectory(atPath: dataDir, withIntermediateDirectories: true)
        var defaults: [String: String] = [:]
        let developmentAPNsKey = DevelopmentAPNsKey()
        // The App Store's stand-in signs with a chain of its own, made now, whose root purchases trusts,
        // and answers the App Store Server API for a key made now too.
        let appStoreKey = DevelopmentAppStoreKey(), appleKey = DevelopmentAppleKey()
        let appStore = try await AppStoreStandIn(bundleID: Self.appID, serverAPIKey: appStoreKey.registered)
        for module in ServiceModule.allCases {
            defaults["\(module.rawValue).url"] = "http://127.0.0.1:\(module.defaultPort)"
            defaults["\(module.rawValue).db.url"] = "sqlite:\(dataDir)/\(module.rawValue).sqlite"
        }
        // Deletions written down beside the stores but outside their backups (`huddle backup`).
        defaults["auth.erasure.journal.file"] = "\(dataDir)/\(AllInOneBackup.journalName)"
        // Photos as files beside the stores, read back through the gateway.
        defaults["media.storage.dir"] = "\(dataDir)/media"
        if standIn {
            defaults["auth.oauth.facebook.url"] = Self.standInURL
            defaults["auth.oauth.facebook.appsecret"] = "development-only"
            // Sign in with Apple against the stand-in, for the demo app's id, codes exchanged with a key made now.
            defaults.merge(appleKey.settings(standInURL: Self.standInURL, clientID: Self.appID)) { _, new in new }
            // Sign in with Google against the stand-in, for a development client id.
            defaults["auth.oauth.google.url"] = Self.standInURL
            defaults["auth.oauth.google.client-ids"] = Self.googleClientID
            defaults["catalog.weather.url"] = Self.standInURL
            defaults["search.geocoding.url"] = Self.standInURL
            // A simulated matchday, polled every second, so matches move while you watch.
            defaults["standin.football.matchday.seed"] = "1"
            defaults["standin.football.matchday.file"] = "\(dataDir)/standin-matchday.json"
            defaults["games.matches.provider.url"] = Self.standInURL
            defaults["games.matches.provider.key"] = "huddle-dev-football-key"
            defaults["games.matches.poll.live.ms"] = "1000"
            defaults["games.matches.poll.day.ms"] = "30000"
            // The matchday's odds, for the Bet tab.
            defaults["betting.odds.provider.url"] = Self.standInURL
            defaults["betting.odds.provider.key"] = "huddle-dev-football-key"
            defaults["betting.odds.poll.ms"] = "5000"
            // Pushes to iPhones go to the stand-in's APNs, whose certificate notify trusts.
            defaults.merge(
                developmentAPNsKey.settings(standInURL: Self.apnsStandInURL, certificateFile: "\(dataDir)/standin-apns-certificate.pem")
            ) { _, new in new }
            // …and to Android phones through the stand-in's FCM, with a service account made at start.
            defaults.merge(try DevelopmentFCMAccount().settings(standInURL: Self.standInURL)) { _, new in new }
            // Purchases made in the app are the stand-in App Store's sandbox transactions.
            defaults["purchases.appstore.bundle.id"] = Self.appID
            defaults["purchases.appstore.environment"] = "Sandbox"
            defaults["purchases.appstore.roots"] = try appStore.signer.rootPEM
            defaults.merge(appStoreKey.settings(standInURL: Self.standInURL)) { _, new in new }
            // Mail goes to the stand-in's relay over STARTTLS, trusting the certificate it writes at start.
            defaults["mail.smtp.url"] = "smtp://huddle:huddle-dev-mail@127.0.0.1:2525"
            defaults["standin.smtp.cert.file"] = "\(dataDir)/standin-smtp-certificate.pem"
            defaults["mail.smtp.trust.file"] = "\(dataDir)/standin-smtp-certificate.pem"
            defaults["mail.links.url"] = "http://127.0.0.1:8080"
        }
        defaults["auth.admin.emails"] = DemoData.administrator.email
        defaults.merge(Wiring.subscriberSettings(for: modules)) { _, new in new }
        defaults["gateway.modules"] = modules.filter { $0 != .gateway }.map(\.rawValue).joined(separator: ",")
        let reader = try await ConfigReader.huddle(overrides: try parseSettings(set), defaults: defaults)
        let logger = bootstrapLogging(level: logLevel, label: "huddle")
        OpenFilesLimit.raise(logging: logger)
        // Spans go to the stand-in's collector unless OTEL_* says otherwise, so a trace is there to look at
        // (GET /test/traces/{traceId}); before any HTTP client is made, which takes the tracer when created.
        let tracing = try HuddleTracing.bootstrap(serviceName: "huddle", defaults: standIn ? Self.standInTracing : [:])

        // Modules in one process sign their internal calls, and the tokens in their pushes, with keys
        // kept in the data folder, unless keys are configured.
        let internalKeys = try InternalKeys.configured(by: reader) ?? KeptInternalKeys.load(dataDir: dataDir)
        let pushes = PushRecorder(), mail = MailRecorder()
        let host = reader.string(forKey: "standin.http.host", default: "127.0.0.1")
        let extras: [any Service] =
            standIn
            ? [
                NamedListener(
                    "the providers' stand-in", at: "\(host):\(reader.int(forKey: "standin.http.port", default: 8090))",
                    portKey: "standin.http.port",
                    buildProviderStandIns(
                        reader: reader, logger: logger, pushes: pushes, appStore: appStore,
                        appleID: try await AppleIDStandIn(clientKey: appleKey.registered(clientIDs: [Self.appID])),
                        google: try GoogleStandIn(),
                        mail: mail)),
                NamedListener(
                    "the APNs stand-in", at: "\(host):\(reader.int(forKey: "standin.apns.http.port", default: 8091))",
                    portKey: "standin.apns.http.port", try await buildAPNsStandIn(reader: reader, logger: logger, pushes: pushes)),
                try await SMTPStandIn(reader: reader, recorder: mail, logger: logger),
            ] : []
        // A group stops its services in reverse: the modules first, then tracing, whose last batch goes
        // to the stand-in's collector, then the stand-in (before it, the flush waited 10 s on a refusal).
        let services = extras + [tracing].compactMap { $0 }
        let stack = try await EmbeddedStack.start(
            modules: modules, reader: reader, internalKeys: internalKeys, logger: logger, extraServices: services,
            gracefulShutdownSignals: [.sigterm, .sigint])
        for module in modules { logger.info("\(module.rawValue) at \(stack.url(of: module))") }
        // The demo is seeded while the stack runs, so a signal during seeding stops `huddle` at once
        // instead of after the seeding's calls have each timed out against modules already stopped.
        let seeding = Task { [demo, standIn] in
            if demo, modules.contains(.auth) {
                _ = await DemoSeed.run(
                    auth: stack.url(of: .auth), catalog: modules.contains(.catalog) ? stack.url(of: .catalog) : nil,
                    games: modules.contains(.games) ? stack.url(of: .games) : nil,
                    chat: modules.contains(.chat) ? stack.url(of: .chat) : nil,
                    notify: modules.contains(.notify) ? stack.url(of: .notify) : nil,
                    purchases: modules.contains(.purchases) ? stack.url(of: .purchases) : nil,
                    appStore: standIn ? Self.standInURL : nil,
                    moderation: modules.contains(.moderation) ? stack.url(of: .moderation) : nil,
                    // Uploads are sent to the gateway in the all-in-one: pictures need both.
                    media: modules.contains(.media) && modules.contains(.gateway) ? stack.url(of: .media) : nil, logger: logger)
            }
            guard !Task.isCancelled else { return }
            if modules.contains(.gateway) {
                print("Huddle is up: \(stack.url(of: .gateway)) (try \(stack.url(of: .gateway))/health). Ctrl-C stops it.")
                // Shown at once even when stdout is a pipe or a file (docker logs, CI).
                fflush(nil)
            }
            // The demo's settled ticket waits on games' and betting's polls: it is made while the stack runs.
            if demo, standIn, Set([.auth, .games, .betting]).isSubset(of: modules) {
                _ = await DemoBetting.seed(
                    authURL: stack.url(of: .auth), bettingURL: stack.url(of: .betting), feedURL: Self.standInURL, logger: logger)
            }
        }
        defer { seeding.cancel() }
        try await stack.wait()
    }
}

extension HuddleCommand {
    /// Where the providers' stand-in listens when `huddle` runs it (its default port).
    static let standInURL = "http://127.0.0.1:8090"
    /// Where `huddle` sends its spans by default: the stand-in's collector, as OTLP/HTTP JSON, every second.
    /// swift-otel sends at most a batch a second (512 spans by default) until its queue (2,048) is full, and
    /// then drops what comes while it sends: a test suite's journeys in parallel through one process made more
    /// than that, and a test looking for its span found it dropped. Four batches' worth a second, and a queue
    /// of eight seconds of them, leave room for bursts.
    static let standInTracing = [
        "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "\(standInURL)/v1/traces", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "http/json",
        "OTEL_BSP_SCHEDULE_DELAY": "1000", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "2048", "OTEL_BSP_MAX_QUEUE_SIZE": "16384",
    ]
    static let apnsStandInURL = "https://127.0.0.1:8091"
    /// The demo app's bundle id, which purchases expects and the stand-in App Store signs for.
    static let appID = "dev.huddle.app"
    /// The Google OAuth client id ID tokens are issued to in development.
    static let googleClientID = "huddle-dev.apps.googleusercontent.com"

    /// Entry point of the `huddle` executable.
    public static func start() async { await main() }
}

/// Where `huddle` keeps its stores and how it is configured and logs, for it and for the subcommands
/// that work on the same stores: an option given after a subcommand's name reaches it too.
struct StoreOptions: ParsableArguments {
    @Option(help: "Directory for the SQLite files of modules without a PostgreSQL URL.")
    var dataDir = "data"

    @Option(help: "Set a configuration key, e.g. --set gateway.ratelimit.rate=200 (repeatable).")
    var set: [String] = []

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"
}
