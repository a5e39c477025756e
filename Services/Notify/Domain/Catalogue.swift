import Foundation
import ServiceHTTP

extension TextCatalogue {
    /// Notify's texts (`Resources/Notifications.xcstrings`); the service refuses to start without them.
    static let notifications = TextCatalogue(contentsOf: Bundle.module.url(forResource: "Notifications", withExtension: "xcstrings"))
}
