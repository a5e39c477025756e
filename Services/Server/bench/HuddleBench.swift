import ArgumentParser
import ServiceHTTP

/// `huddle-bench`: load and latency benchmarks that print their figures.
@main
struct HuddleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "huddle-bench", abstract: "Huddle benchmarks.",
        subcommands: [
            LiveScoresBenchmark.self, LiveMatchBenchmark.self, SearchBenchmark.self, TicketsBenchmark.self, ChatBenchmark.self,
            JSONBenchmark.self, EventsBenchmark.self, ForgotBenchmark.self, MediaBenchmark.self, UploadsBenchmark.self,
            PushesBenchmark.self, ChatPushBenchmark.self, ChatPushSends.self, BalanceBenchmark.self, TracingBenchmark.self,
            GatewayBenchmark.self, HomeRefreshBenchmark.self,
        ])

    /// The benchmarks' devices hold a socket each, ten thousand at a time: the open files' soft limit is
    /// raised first, as the modules' executables raise theirs (`OpenFilesLimit`), and the modules they
    /// start inherit it.
    static func main() async {
        OpenFilesLimit.raise()
        await main(nil)
    }
}
