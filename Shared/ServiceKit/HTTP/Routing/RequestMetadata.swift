public import Logging

/// The request id and caller of the request being handled, for log lines.
///
/// Held in a task local and read by a `Logger.MetadataProvider` only when a line is actually
/// logged, instead of being copied into the logger on every request (which makes the stream
/// handler re-render its metadata each time).
public enum RequestMetadata {
    @TaskLocal public static var requestID: String?
    @TaskLocal public static var userID: String?

    /// Give this to `LoggingSystem.bootstrap(_:metadataProvider:)`.
    public static let provider = Logger.MetadataProvider {
        var metadata: Logger.Metadata = [:]
        if let requestID { metadata["request_id"] = .string(requestID) }
        if let userID { metadata["user_id"] = .string(userID) }
        return metadata
    }
}
