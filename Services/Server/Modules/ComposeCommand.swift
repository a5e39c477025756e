import ArgumentParser
import DeploymentCheck
import Foundation

/// `huddle compose …`: docker-compose.yml read as `docker compose` reads it, for running its
/// topology without a container engine (`deploy/compose/topology.sh`) and for checking it.
struct ComposeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compose", abstract: "Read docker-compose.yml: its services, and each one's environment.",
        subcommands: [Services.self, Environment.self, Check.self])

    struct FileOption: ParsableArguments {
        @Option(help: "The compose file.")
        var file = "docker-compose.yml"

        func read() throws -> ComposeFile { try ComposeFile(yaml: String(contentsOfFile: file, encoding: .utf8)) }
    }

    /// One line a service: its name (the compose hostname), then the executable it runs (its
    /// `HUDDLE_MODULE`), or `postgres` for the database, or `-`.
    struct Services: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the services and what each runs.")
        @OptionGroup var compose: FileOption

        func run() throws {
            let file = try compose.read()
            for service in file.services.values.sorted(by: { $0.name < $1.name }) {
                let runs = service.environment["HUDDLE_MODULE"] ?? (service.name == file.postgres?.name ? "postgres" : "-")
                print("\(service.name) \(runs)")
            }
        }
    }

    /// `KEY=VALUE` lines, `${…}` filled in as `docker compose` fills them: from this process's
    /// environment, then from the `.env` file beside the compose file; a required variable that is
    /// set in neither is an error naming it.
    struct Environment: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "env", abstract: "Print a service's environment, interpolated.")
        @OptionGroup var compose: FileOption
        @Option(help: "The variables file (default: .env beside the compose file).") var envFile: String?
        @Argument(help: "The service.") var service: String

        func run() throws {
            guard let found = try compose.read().services[service] else { throw ValidationError("no service named \(service)") }
            let beside = URL(fileURLWithPath: compose.file).deletingLastPathComponent().appendingPathComponent(".env").path
            let path = envFile ?? beside
            var variables: [String: String] = [:]
            if let text = try? String(contentsOfFile: path, encoding: .utf8) {
                variables = try DotEnv.parse(text)
            } else if envFile != nil {
                throw ValidationError("cannot read \(path)")
            }
            variables.merge(ProcessInfo.processInfo.environment) { _, shell in shell }
            let lines = try found.environment.sorted(by: { $0.key < $1.key }).map { key, value in
                "\(key)=\(try ComposeFile.interpolate(value, with: variables))"
            }
            print(lines.joined(separator: "\n"))
        }
    }

    /// The wiring check `WiringTests` runs, for a compose file and init.sql of one's own.
    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check the file and init.sql against the wiring.")
        @OptionGroup var compose: FileOption
        @Option(help: "The PostgreSQL init script.") var initSQL = "deploy/postgres/init.sql"

        func run() throws {
            let findings = DeploymentCheck.findings(
                compose: try compose.read(), initSQL: try String(contentsOfFile: initSQL, encoding: .utf8), modules: HuddleModules.available
            )
            for finding in findings { print(finding) }
            if !findings.isEmpty { throw ExitCode.failure }
            print("\(compose.file) and \(initSQL) follow the wiring.")
        }
    }
}
