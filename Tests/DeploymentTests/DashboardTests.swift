import Foundation
import Testing

/// The Grafana dashboards compose provisions chart only metrics the services make: a metric renamed
/// in the code, or misspelt in a panel, would leave a panel empty without anyone noticing.
@Suite("Dashboards")
struct DashboardTests {
    static let dashboards = WiringTests.root.appendingPathComponent("deploy/kubernetes/components/monitoring/dashboards")

    /// Every metric name the services' code makes, as Prometheus spells it (dots become underscores).
    static func metricsMade() throws -> Set<String> {
        let label = try Regex(#"(?:(?:Counter|Gauge|Timer|Meter|Recorder)\(\s*label:|QueueAgeWatch\()\s*"([^"]+)""#)
        var names: Set<String> = []
        for folder in ["Services", "Shared"] {
            let files = FileManager.default.enumerator(at: WiringTests.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let source = try String(contentsOf: file, encoding: .utf8)
                for match in source.matches(of: label) {
                    if let name = match.output[1].substring { names.insert(name.replacingOccurrences(of: ".", with: "_")) }
                }
            }
        }
        return names
    }

    /// A histogram's metric from the name of one of its series.
    static func metric(ofSeries name: String) -> String {
        for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) }
        return name
    }

    /// The metric names a PromQL expression reads: each name before a `{` selector, without the
    /// suffixes a histogram's series carry.
    static func metricsRead(_ expression: String) throws -> Set<String> {
        let selector = try Regex(#"([a-z_][a-z0-9_]*)\{"#)
        return Set(
            expression.matches(of: selector).compactMap { $0.output[1].substring.map(String.init) }.map(metric(ofSeries:)))
    }

    @Test("every panel of every dashboard charts metrics the services make")
    func panelsChartMetricsThatExist() throws {
        let made = try Self.metricsMade()
        #expect(made.isSuperset(of: ["outbox_lag_seconds", "live_sockets", "notify_pushes_total", "betting_tickets_placed_total"]))
        let files = try FileManager.default.contentsOfDirectory(at: Self.dashboards, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        #expect(files.count == 11)
        for file in files {
            let dashboard = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            let panels = dashboard?["panels"] as? [[String: Any]] ?? []
            #expect(!panels.isEmpty, "\(file.lastPathComponent) has no panels")
            for panel in panels {
                for target in panel["targets"] as? [[String: Any]] ?? [] {
                    let expression = target["expr"] as? String ?? ""
                    let read = try Self.metricsRead(expression)
                    #expect(
                        !read.isEmpty && read.isSubset(of: made), "\(file.lastPathComponent): \(expression) reads \(read.subtracting(made))"
                    )
                }
            }
        }
    }

    /// The metric names an alert's expression reads: its identifiers once label matchers, `by (…)`
    /// groupings and template text are taken out, without PromQL's functions and recorded rules.
    static func metricsAlerted(_ expression: String) throws -> Set<String> {
        var text = expression.replacing(try Regex(#"\{[^}]*\}"#), with: "")
        text = text.replacing(try Regex(#"\b(by|without)\s*\([^)]*\)"#), with: "")
        let functions: Set<String> = ["histogram_quantile", "sum", "max", "min", "rate", "increase", "time", "by", "avg", "count"]
        return Set(
            text.matches(of: try Regex(#"[a-z_][a-z0-9_:]*"#)).compactMap { $0.output[0].substring.map(String.init) }
                .filter { !functions.contains($0) && !$0.contains(":") && $0.contains("_") }.map(metric(ofSeries:)))
    }

    @Test("every alert reads metrics the services make, or the PostgreSQL operator's and its backup plugin's exporters")
    func alertsReadMetricsThatExist() throws {
        let made = try Self.metricsMade()
        #expect(made.isSuperset(of: ["huddle_mail_queue_age_seconds", "notify_push_queue_age_seconds"]))
        let rules = try String(
            contentsOf: WiringTests.root.appendingPathComponent("deploy/kubernetes/components/monitoring/alerts.yaml"), encoding: .utf8)
        let expressions = rules.matches(of: try Regex(#"expr: (.+)\n"#)).compactMap { $0.output[1].substring.map(String.init) }
        #expect(expressions.count >= 14)
        for expression in expressions {
            let read = try Self.metricsAlerted(expression)
            let foreign = read.subtracting(made).filter { !$0.hasPrefix("cnpg_") && !$0.hasPrefix("barman_cloud_") }
            #expect(foreign.isEmpty, "\(expression) reads \(foreign)")
        }
        #expect(
            try Self.metricsAlerted("max(notify_push_queue_agee_seconds) > 300").subtracting(made) == ["notify_push_queue_agee_seconds"])
    }
}
