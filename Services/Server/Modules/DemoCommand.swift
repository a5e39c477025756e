import ArgumentParser
import Foundation
import ModuleLauncher

/// `huddle demo --url <gateway> [--app-store <stand-in>]`: the demo accounts, their phones (and unlocks), courses,
/// venues, teams, leagues, news and games,
/// created through a running stack's public API (docker compose, a staging cluster), as `huddle`
/// does on its first start. The demo administrator must be one of the stack's administrators
/// (`AUTH_ADMIN_EMAILS`) to create places and publish news. Running it again adds nothing twice.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo", abstract: "Seed the demo data into a running Huddle through its gateway.")

    @Option(help: "The gateway's base URL, e.g. http://localhost:8080.")
    var url: String

    @Option(help: "The development stand-in's base URL (its App Store signs the demo players' unlocks), e.g. http://localhost:8090.")
    var appStore: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func run() async throws {
        let gateway = url.hasSuffix("/") ? String(url.dropLast()) : url
        let logger = bootstrapLogging(level: logLevel, label: "huddle.demo")
        let seeded = await DemoSeed.run(
            auth: gateway, catalog: gateway, games: gateway, chat: gateway, notify: gateway, purchases: appStore.map { _ in gateway },
            appStore: appStore, moderation: gateway, media: gateway, logger: logger)
        guard seeded else {
            print(
                """
                The demo is incomplete (see the warnings above). A 403 on courses, venues or news means \
                \(DemoData.administrator.email) is not an administrator: add it to AUTH_ADMIN_EMAILS and restart auth.
                """)
            throw ExitCode.failure
        }
        print("Demo data is in \(gateway).")
    }
}
