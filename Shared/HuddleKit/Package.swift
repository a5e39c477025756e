// swift-tools-version:6.2
import PackageDescription

// HuddleKit, the Swift client library for apps, with the wire types it shares with the servers
// (Contracts). A package of its own so that an app resolves nothing of the server: Foundation only,
// no dependencies. The server's package uses it by path.
let package = Package(
    name: "HuddleKit",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .library(name: "HuddleKit", targets: ["HuddleKit"]),
        .library(name: "Contracts", targets: ["Contracts"]),
    ],
    targets: [
        .target(name: "Contracts", swiftSettings: swiftSettings),
        .target(name: "HuddleKit", dependencies: ["Contracts"], swiftSettings: swiftSettings),
        // Runs without a server; the offline journey also runs against a stack when HUDDLE_GATEWAY_URL names its gateway.
        .testTarget(name: "HuddleKitTests", dependencies: ["HuddleKit"], swiftSettings: swiftSettings),
    ]
)

var swiftSettings: [SwiftSetting] {
    [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InternalImportsByDefault"),
    ]
}
