// swift-tools-version:6.2
// A client of Huddle generated from the live `/openapi.json` by Apple's swift-openapi-generator,
// the way an iOS team that prefers it to HuddleKit would build one. CI generates it from the
// running stack (`deploy/generated-client/run.sh`), fails on any warning of the generator, and
// drives a journey through it against the gateway.
import PackageDescription

let package = Package(
    name: "generated-client",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(url: "https://github.com/apple/swift-openapi-generator", exact: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", exact: "1.13.4"),
        .package(url: "https://github.com/apple/swift-openapi-urlsession", exact: "1.4.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "GeneratedClientJourney",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]
        )
    ]
)
