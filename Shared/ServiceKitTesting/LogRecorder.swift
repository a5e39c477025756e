public import Logging
import Synchronization

/// Keeps every line logged through its loggers, so a test can say what was, or was not, logged.
public final class LogRecorder: Sendable {
    public struct Line: Sendable, CustomStringConvertible {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
        public var description: String { "\(level) \(metadata) \(message)" }
    }

    private let lines = Mutex<[Line]>([])

    public init() {}

    public var logged: [Line] { lines.withLock { $0 } }

    public func logger(label: String, level: Logger.Level = .info) -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = level
        return logger
    }

    private func record(_ line: Line) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            recorder.record(
                Line(level: event.level, message: event.message.description, metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
        }
    }
}
