import Contracts
import Hummingbird
import ServiceHTTP

/// Problems only media raises; shared ones (validation, 401, 403, 404) come from `CommonError`.
enum MediaError: ProblemError {
    /// Larger than `media.max-bytes`, declared or sent.
    case tooLarge(maxBytes: Int)
    /// Not an image of the declared type, too many pixels, or unreadable.
    case unsupported(String)
    /// Completed before its bytes arrived.
    case uploadMissing
    /// An upload URL used after it expired, or not signed by this deployment.
    case uploadURLInvalid
    /// Named to be attached, and it cannot be: why.
    case notAttachable(String)

    var problem: Problem {
        switch self {
        case .tooLarge(let maxBytes):
            Problem(.tooLarge, title: "Too large", detail: localized("An upload may be at most \(maxBytes) bytes."))
        case .unsupported(let reason):
            Problem(.unsupportedMedia, title: "Not a supported image", detail: reason)
        case .uploadMissing:
            Problem(
                .uploadMissing, title: "Nothing uploaded",
                detail: localized("Send the bytes to the upload URL first, then complete the upload."))
        case .notAttachable(let reason):
            Problem(.mediaNotAttachable, title: "Upload cannot be attached", detail: reason)
        case .uploadURLInvalid:
            Problem(
                .forbidden, title: "Upload URL not valid", detail: localized("The upload URL expired or was changed; create a new upload."))
        }
    }
}
