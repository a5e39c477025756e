// swift-tools-version:6.2
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Products used by several targets, named once.
extension Target.Dependency {
    static let hummingbird = product(name: "Hummingbird", package: "hummingbird")
    static let asyncHTTPClient = product(name: "AsyncHTTPClient", package: "async-http-client")
    static let configuration = product(name: "Configuration", package: "swift-configuration")
    static let logging = product(name: "Logging", package: "swift-log")
    static let serviceLifecycle = product(name: "ServiceLifecycle", package: "swift-service-lifecycle")
    static let unixSignals = product(name: "UnixSignals", package: "swift-service-lifecycle")
    static let sqlKit = product(name: "SQLKit", package: "sql-kit")
    static let jwtKit = product(name: "JWTKit", package: "jwt-kit")
    static let crypto = product(name: "Crypto", package: "swift-crypto")
    static let cryptoExtras = product(name: "CryptoExtras", package: "swift-crypto")
    static let httpTypes = product(name: "HTTPTypes", package: "swift-http-types")
    static let prometheus = product(name: "Prometheus", package: "swift-prometheus")
    static let nioCore = product(name: "NIOCore", package: "swift-nio")
    static let nioWebSocket = product(name: "NIOWebSocket", package: "swift-nio")
    static let nioPosix = product(name: "NIOPosix", package: "swift-nio")
    static let nioHTTP1 = product(name: "NIOHTTP1", package: "swift-nio")
    static let nioConcurrencyHelpers = product(name: "NIOConcurrencyHelpers", package: "swift-nio")
    static let nioFoundationCompat = product(name: "NIOFoundationCompat", package: "swift-nio")
    static let nioSSL = product(name: "NIOSSL", package: "swift-nio-ssl")
    static let nioExtras = product(name: "NIOExtras", package: "swift-nio-extras")
    static let x509 = product(name: "X509", package: "swift-certificates")
    static let swiftASN1 = product(name: "SwiftASN1", package: "swift-asn1")
    static let hummingbirdHTTP2 = product(name: "HummingbirdHTTP2", package: "hummingbird")
    static let webSocket = product(name: "HummingbirdWebSocket", package: "hummingbird-websocket")
    static let webSocketClient = product(name: "HummingbirdWSClient", package: "hummingbird-websocket")
    static let tracing = product(name: "Tracing", package: "swift-distributed-tracing")
    static let instrumentation = product(name: "Instrumentation", package: "swift-distributed-tracing")
    static let serviceContext = product(name: "ServiceContextModule", package: "swift-service-context")
    static let otel = product(name: "OTel", package: "swift-otel")
    static let contracts = product(name: "Contracts", package: "HuddleKit")
    static let huddleKit = product(name: "HuddleKit", package: "HuddleKit")
    static let serverContracts = byName(name: "ServerContracts")
    static let effects = byName(name: "HuddleEffects")
}

let package = Package(
    name: "huddle",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "huddle", targets: ["Huddle"]),
        .executable(name: "gateway", targets: ["GatewayServer"]),
        .executable(name: "auth", targets: ["AuthServer"]),
        .executable(name: "catalog", targets: ["CatalogServer"]),
        .executable(name: "games", targets: ["GamesServer"]),
        .executable(name: "search", targets: ["SearchServer"]),
        .executable(name: "betting", targets: ["BettingServer"]),
        .executable(name: "chat", targets: ["ChatServer"]),
        .executable(name: "notify", targets: ["NotifyServer"]),
        .executable(name: "purchases", targets: ["PurchasesServer"]),
        .executable(name: "moderation", targets: ["ModerationServer"]),
        .executable(name: "media", targets: ["MediaServer"]),
        .executable(name: "stand-in", targets: ["StandInServer"]),
        .executable(name: "huddle-bench", targets: ["HuddleBench"]),
    ],
    dependencies: [
        // The client library and the wire types, a package of their own (apps resolve nothing of the server's).
        .package(path: "Shared/HuddleKit"),
        // Traits named explicitly so `swift build` and `swift test` agree and do not rebuild each other's output.
        .package(
            url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1",
            traits: ["ConfigurationSupport", "FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        // Traces: the API, and its OpenTelemetry backend exporting over OTLP/HTTP only (no gRPC to build).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-service-context.git", from: "1.5.1"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
        // The moderation console's pages.
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/attaswift/BigInt.git", from: "6.0.1"),
    ],
    targets: [
        // MARK: Shared
        // What the servers share and no app sees: internal operations, events, the console, schema reading.
        .target(name: "ServerContracts", dependencies: [.contracts], path: "Shared/ServerContracts", swiftSettings: swiftSettings),
        // The clock, handed to every builder.
        .target(name: "HuddleEffects", path: "Shared/Effects", swiftSettings: swiftSettings),
        // ServiceKit in layers, each linked only by what uses it (the gateway links no database driver):
        // HTTP (what every Huddle process is: routing, descriptions, problems, tokens, internal calls,
        // observability, live sockets, and the runner with its settings, wiring and staged shutdown),
        // Store (databases, migrations, outbox and inbox, change notifications), Features (gates, the
        // content filter, personal data, provider transports), and ServiceKit (the skeleton every
        // module with a store is built on). Docs/ARCHITECTURE.md states the rule.
        .target(
            name: "ServiceHTTP",
            dependencies: [
                .effects,
                .contracts, .serverContracts, .hummingbird, .jwtKit, .crypto, .asyncHTTPClient, .serviceLifecycle, .configuration,
                .logging, .prometheus, .httpTypes, .nioCore, .nioConcurrencyHelpers, .nioFoundationCompat, .nioHTTP1, .nioPosix,
                .webSocket, .tracing, .instrumentation, .serviceContext, .otel, .nioWebSocket, .unixSignals,
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Shared/ServiceKit/HTTP", resources: [.copy("Resources/Problems.xcstrings")], swiftSettings: swiftSettings),
        .target(
            name: "ServiceStore",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", .hummingbird, .sqlKit, .serviceLifecycle, .configuration,
                .logging, .nioCore, .nioConcurrencyHelpers, .nioSSL, .tracing, .instrumentation, .serviceContext,
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Shared/ServiceKit/Store", swiftSettings: swiftSettings),
        .target(
            name: "ServiceFeatures",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", "ServiceStore", .sqlKit, .configuration, .asyncHTTPClient, .nioCore,
                .nioFoundationCompat, .nioHTTP1, .tracing, .nioPosix, .nioSSL, .nioExtras, .logging, .crypto,
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            path: "Shared/ServiceKit/Features", swiftSettings: swiftSettings),
        .target(
            name: "ServiceKit",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", "ServiceStore", "ServiceFeatures", .hummingbird, .sqlKit,
                .configuration, .logging, .serviceLifecycle, .prometheus,
            ],
            path: "Shared/ServiceKit/Skeleton", swiftSettings: swiftSettings),
        .target(
            name: "ServiceClients",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", .asyncHTTPClient, .jwtKit, .logging, .nioCore, .nioHTTP1, .nioFoundationCompat,
                .nioConcurrencyHelpers,
            ],
            path: "Shared/ServiceClients", swiftSettings: swiftSettings),
        .target(
            name: "ServiceKitTesting",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", "ServiceStore", "ServiceClients", .asyncHTTPClient, .configuration,
                .hummingbird, .logging, .nioCore, .nioHTTP1,
                .nioConcurrencyHelpers, .nioFoundationCompat, .nioPosix, .sqlKit, .serviceLifecycle, .webSocketClient, .httpTypes,
                .nioWebSocket, "ProviderStandIns",
            ],
            path: "Shared/ServiceKitTesting", swiftSettings: swiftSettings),

        .target(
            name: "DeploymentCheck", dependencies: [.contracts, "ServiceHTTP", .product(name: "Yams", package: "Yams")],
            path: "Shared/DeploymentCheck", swiftSettings: swiftSettings),

        // MARK: Services
        .target(
            name: "Gateway",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceHTTP", .hummingbird, .webSocket, .configuration,
                .logging, .nioCore, .nioPosix, .nioHTTP1, .nioConcurrencyHelpers, .serviceLifecycle, .prometheus, .httpTypes, .tracing,
                .instrumentation, .serviceContext,
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            path: "Services/Gateway", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "AuthService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .jwtKit, .crypto, .sqlKit, .asyncHTTPClient,
                .configuration, .logging, .nioCore, .nioPosix, .nioHTTP1, .nioFoundationCompat,
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"), .product(name: "Mustache", package: "swift-mustache"),
            ],
            path: "Services/Auth", exclude: ["README.md"], resources: [.copy("Resources/Mails.xcstrings")], swiftSettings: swiftSettings),
        .target(
            name: "CatalogService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .sqlKit, .asyncHTTPClient, .configuration, .logging,
                .nioCore, .nioHTTP1, .nioFoundationCompat, .serviceLifecycle, .nioConcurrencyHelpers,
            ],
            path: "Services/Catalog", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "GamesService",
            dependencies: [
                .effects,
                .tracing,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .webSocket, .sqlKit, .configuration, .logging, .nioCore,
                .nioHTTP1, .nioConcurrencyHelpers, .serviceLifecycle, .asyncHTTPClient, .crypto, .nioFoundationCompat, .nioWebSocket,
            ],
            path: "Services/Games", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "ChatService",
            dependencies: [
                .effects,
                .tracing,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .webSocket, .sqlKit, .configuration, .logging, .nioCore,
                .nioConcurrencyHelpers, .nioFoundationCompat, .nioWebSocket, .serviceLifecycle, .httpTypes,
            ],
            path: "Services/Chat", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "NotifyService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .sqlKit, .configuration, .logging, .nioCore,
                .nioFoundationCompat, .serviceLifecycle, .asyncHTTPClient, .httpTypes, .nioHTTP1, .jwtKit, .crypto, .nioSSL,
            ],
            path: "Services/Notify", exclude: ["README.md"], resources: [.copy("Resources/Notifications.xcstrings")],
            swiftSettings: swiftSettings),
        .target(
            name: "BettingService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", .hummingbird, .sqlKit,
                .configuration, .logging, .nioCore, .nioFoundationCompat,
                .serviceLifecycle, .asyncHTTPClient, .crypto, .httpTypes, .nioHTTP1, .product(name: "BigInt", package: "BigInt"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Services/Betting", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "SearchService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .sqlKit, .configuration, .logging, .serviceLifecycle,
            ],
            path: "Services/Search", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "PurchasesService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .sqlKit, .configuration, .logging, .crypto, .x509, .swiftASN1,
                .asyncHTTPClient, .serviceLifecycle, .jwtKit, .nioCore, .nioFoundationCompat, .nioHTTP1,
            ],
            path: "Services/Purchases", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "ModerationService",
            dependencies: [
                .effects,
                .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", "ServiceClients",
                .hummingbird, .sqlKit, .configuration, .logging, .serviceLifecycle, .crypto,
                .httpTypes, .product(name: "Metrics", package: "swift-metrics"), .product(name: "Mustache", package: "swift-mustache"),
            ],
            path: "Services/Moderation", swiftSettings: swiftSettings),
        // libvips (Debian's libvips-dev, found with pkg-config): the media module's image library.
        .systemLibrary(name: "CVips", path: "Shared/CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // The calls into libvips that Swift cannot make itself: its options are C variadic arguments.
        .target(name: "VipsShim", dependencies: ["CVips"], path: "Shared/VipsShim"),
        .target(
            name: "MediaService",
            dependencies: [
                .effects,
                "VipsShim", .contracts, .serverContracts, "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", .sqlKit, .logging,
                .crypto, .nioPosix, .hummingbird, .configuration, .serviceLifecycle,
            ],
            path: "Services/Media", exclude: ["README.md"], swiftSettings: swiftSettings),
        .target(
            name: "ProviderStandIns",
            dependencies: [
                .effects,
                .hummingbird, .configuration, .logging, .nioCore, .nioConcurrencyHelpers, .httpTypes, .asyncHTTPClient, .nioHTTP1,
                .nioFoundationCompat, .hummingbirdHTTP2, .nioSSL, .x509, .swiftASN1, .jwtKit, .crypto, .cryptoExtras, .nioPosix, .nioExtras,
                .serviceLifecycle,
            ],
            path: "Services/ProviderStandIns", swiftSettings: swiftSettings),

        // MARK: Executables
        // What a module's process is made of (its command, configuration sources, logging, the stack it
        // runs in), without any module: each thin executable adds only its own.
        .target(
            name: "ModuleLauncher",
            dependencies: [
                .effects,
                "ServiceHTTP", .contracts, .configuration, .serviceLifecycle, .unixSignals, .logging, .nioCore, .nioPosix,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/Server/Launcher", swiftSettings: swiftSettings),
        .target(
            name: "HuddleModules",
            dependencies: [
                .effects,
                "ModuleLauncher", "ServiceHTTP", "ServiceStore", .serverContracts, "Gateway", "AuthService", "CatalogService", "GamesService",
                "SearchService", "BettingService",
                "ChatService", "NotifyService", "PurchasesService", "ModerationService", "MediaService", "ProviderStandIns",
                "ServiceClients",
                .contracts,
                "DeploymentCheck", .asyncHTTPClient, .configuration, .crypto,
                .serviceLifecycle, .unixSignals, .logging, .nioCore, .nioPosix, .nioHTTP1,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/Server/Modules", swiftSettings: swiftSettings),
        .executableTarget(
            name: "Huddle", dependencies: ["HuddleModules", .contracts], path: "Services/Server/huddle", swiftSettings: swiftSettings),
        .executableTarget(
            name: "GatewayServer", dependencies: ["ModuleLauncher", "Gateway", "ServiceHTTP", .contracts], path: "Services/Server/gateway",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "AuthServer", dependencies: ["ModuleLauncher", "AuthService", "ServiceHTTP", .contracts], path: "Services/Server/auth",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "CatalogServer", dependencies: ["ModuleLauncher", "CatalogService", "ServiceHTTP", .contracts],
            path: "Services/Server/catalog",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "GamesServer", dependencies: ["ModuleLauncher", "GamesService", "ServiceHTTP", .contracts], path: "Services/Server/games",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "SearchServer", dependencies: ["ModuleLauncher", "SearchService", "ServiceHTTP", .contracts],
            path: "Services/Server/search", swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "BettingServer", dependencies: ["ModuleLauncher", "BettingService", "ServiceHTTP", .contracts],
            path: "Services/Server/betting",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "ChatServer", dependencies: ["ModuleLauncher", "ChatService", "ServiceHTTP", .contracts], path: "Services/Server/chat",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "NotifyServer", dependencies: ["ModuleLauncher", "NotifyService", "ServiceHTTP", .contracts],
            path: "Services/Server/notify",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "PurchasesServer", dependencies: ["ModuleLauncher", "PurchasesService", "ServiceHTTP", .contracts],
            path: "Services/Server/purchases",
            swiftSettings: swiftSettings),
        .executableTarget(
            name: "ModerationServer", dependencies: ["ModuleLauncher", "ModerationService", "ServiceHTTP", .contracts],
            path: "Services/Server/moderation", swiftSettings: swiftSettings),
        .executableTarget(
            name: "MediaServer", dependencies: ["ModuleLauncher", "MediaService", "ServiceHTTP", .contracts],
            path: "Services/Server/media", swiftSettings: swiftSettings),
        .executableTarget(
            name: "HuddleBench",
            dependencies: [
                .effects,
                "HuddleModules", "MediaService", "ModuleLauncher", "ServiceKitTesting", "ProviderStandIns", .asyncHTTPClient, .nioCore,
                .nioHTTP1,
                .nioConcurrencyHelpers,
                .nioPosix, .nioWebSocket,
                .nioFoundationCompat, "ServiceHTTP", "ServiceStore", .serverContracts, .contracts, .configuration, .logging, .sqlKit,
                .hummingbird,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Services/Server/bench", swiftSettings: swiftSettings),
        .executableTarget(
            name: "StandInServer", dependencies: ["HuddleModules", .contracts], path: "Services/Server/stand-in",
            swiftSettings: swiftSettings),

        // MARK: Tests
        .testTarget(
            name: "ServiceKitTests",
            dependencies: [
                .effects,
                "ServiceKit", "ServiceHTTP", "ServiceStore", "ServiceFeatures", .serverContracts, "ServiceKitTesting", "ServiceClients",
                "AuthService", "Gateway", .contracts, .hummingbird, .httpTypes, .jwtKit,
                .sqlKit, .logging, .nioCore, .nioHTTP1, .nioConcurrencyHelpers,
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/ServiceKitTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "AuthTests",
            dependencies: [
                .effects,
                "AuthService", "ProviderStandIns", "ServiceKitTesting", .contracts, .serverContracts, "ServiceHTTP", "ServiceStore",
                .jwtKit, .configuration,
                .logging, .serviceLifecycle, .nioHTTP1, .crypto, .cryptoExtras,
            ],
            path: "Tests/AuthTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "CatalogTests",
            dependencies: [
                .effects,
                "CatalogService", "AuthService", "ProviderStandIns", "ServiceKitTesting", "ServiceHTTP", "ServiceStore", .serverContracts,
                "ServiceClients", .contracts,
                .hummingbird,
                .configuration, .logging, .nioCore, .nioHTTP1, .serviceLifecycle, .sqlKit,
            ],
            path: "Tests/CatalogTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "GamesTests",
            dependencies: [
                .effects,
                "GamesService", "CatalogService", "AuthService", "ProviderStandIns", "ServiceKitTesting", "ServiceKit", "ServiceHTTP",
                "ServiceStore", "ServiceFeatures", .serverContracts, "ServiceClients",
                .contracts, .hummingbird, .configuration, .logging, .nioCore, .nioHTTP1, .serviceLifecycle, .sqlKit, .asyncHTTPClient,
                .nioWebSocket, .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Tests/GamesTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "SearchTests",
            dependencies: [
                .effects,
                "SearchService", "GamesService", "CatalogService", "AuthService", "ServiceKitTesting", "ServiceHTTP", "ServiceStore",
                .serverContracts, "ServiceClients", "ProviderStandIns",
                .contracts, .hummingbird, .configuration, .logging, .nioHTTP1, .sqlKit,
            ],
            path: "Tests/SearchTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "BettingTests",
            dependencies: [
                .effects,
                "BettingService", "GamesService", "CatalogService", "AuthService", "ProviderStandIns", "ServiceKitTesting", "ServiceHTTP",
                "ServiceStore", .serverContracts,
                .contracts, .hummingbird, .configuration, .logging, .nioHTTP1, .sqlKit, .asyncHTTPClient,
            ],
            path: "Tests/BettingTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "ChatTests",
            dependencies: [
                .effects,
                "ChatService", "GamesService", "CatalogService", "AuthService", "ServiceKitTesting", "ServiceHTTP", "ServiceStore",
                .serverContracts,
                .contracts,
                .huddleKit, .hummingbird, .configuration, .logging, .nioCore, .nioHTTP1, .nioConcurrencyHelpers, .sqlKit, .webSocket,
                .webSocketClient, .nioWebSocket,
            ],
            path: "Tests/ChatTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "ModerationTests",
            dependencies: [
                "ModerationService", "CatalogService", "AuthService", "ServiceKitTesting", "ServiceHTTP", .contracts, .configuration,
                .effects,
            ],
            path: "Tests/ModerationTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "MediaTests",
            dependencies: [
                "MediaService", "ServiceKitTesting", "ServiceStore", "ServiceFeatures", "ServiceHTTP", .contracts, .crypto, .logging,
            ],
            path: "Tests/MediaTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "PurchasesTests",
            dependencies: [
                .effects,
                "PurchasesService", "AuthService", "ProviderStandIns", "ServiceKitTesting", "ServiceHTTP", "ServiceStore",
                "ServiceFeatures", .serverContracts, .contracts, .x509, .crypto,
                .configuration, .logging, .nioConcurrencyHelpers, .sqlKit,
            ],
            path: "Tests/PurchasesTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "NotifyTests",
            dependencies: [
                "NotifyService", "GamesService", "CatalogService", "AuthService", "ProviderStandIns", "ServiceKitTesting", "ServiceHTTP",
                "ServiceStore",
                .contracts, .huddleKit, .hummingbird, .configuration, .logging, .nioCore, .nioHTTP1, .sqlKit, .asyncHTTPClient,
                .nioConcurrencyHelpers,
            ],
            path: "Tests/NotifyTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "Gateway", "ServiceKitTesting", "ServiceHTTP", .contracts, .hummingbird, .webSocket, .webSocketClient,
                .logging, .nioCore, .nioHTTP1, .serviceLifecycle, .httpTypes,
                .nioWebSocket,
            ],
            path: "Tests/GatewayTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "StandInTests",
            dependencies: [
                "ProviderStandIns", "ServiceHTTP", "ServiceKitTesting", "ServiceClients", .configuration, .logging, .jwtKit, .nioHTTP1,
            ],
            path: "Tests/StandInTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "DeploymentTests",
            dependencies: [.effects, "DeploymentCheck", "HuddleModules", "ModuleLauncher", .serverContracts, .contracts, .configuration],
            path: "Tests/DeploymentTests", swiftSettings: swiftSettings),
        .testTarget(
            name: "StackTests",
            dependencies: [
                .effects,
                "HuddleModules", "MediaService", "CatalogService", "ModuleLauncher", .huddleKit, "ProviderStandIns", "ServiceKitTesting",
                .contracts,
                .serverContracts,
                "ServiceHTTP", "ServiceStore", .configuration, .logging,
                .nioCore, .nioHTTP1,
                .nioPosix, .nioConcurrencyHelpers, .webSocketClient, .httpTypes, .nioWebSocket, .crypto, .tracing, .serviceContext,
                .hummingbird, .asyncHTTPClient, .nioFoundationCompat,
            ],
            path: "Tests/StackTests", swiftSettings: swiftSettings),
        // The README's snippets and lists, checked against what they describe.
        .testTarget(name: "ReadmeTests", dependencies: [.huddleKit], path: "Tests/ReadmeTests", swiftSettings: swiftSettings),
    ]
)
