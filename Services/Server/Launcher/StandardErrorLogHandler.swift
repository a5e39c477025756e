import Logging

/// Writes through swift-log's `StreamLogHandler` to standard error, but formats metadata only for
/// lines it writes. `StreamLogHandler` formats its metadata each time a key is set, and the server
/// sets one (`hb.request.id`) on every request's logger, while at the usual levels almost nothing
/// is logged: the formatting was a measurable share of the gateway's time per request.
struct StandardErrorLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var stream = StreamLogHandler.standardError(label: label, metadataProvider: metadataProvider)
        stream.logLevel = logLevel
        stream.metadata = metadata
        stream.log(event: event)
    }
}
