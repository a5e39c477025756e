import ArgumentParser

/// `huddle-bench`: load and latency benchmarks that print their figures.
@main
struct HuddleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "huddle-bench", abstract: "Huddle benchmarks.",
        subcommands: [
            LiveScoresBenchmark.self, LiveMatchBenchmark.self, SearchBenchmark.self, TicketsBenchmark.self, ChatBenchmark.self,
            PushesBenchmark.self, BalanceBenchmark.self, TracingBenchmark.self, GatewayBenchmark.self,
        ])
}
