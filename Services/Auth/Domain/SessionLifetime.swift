import Contracts
import Foundation

/// How long a session lasts: it slides, so a refresh within `idle` of the last one keeps it going,
/// but never past `max` from the sign-in. A player who opens the app monthly is never signed out; a
/// phone left in a drawer is, after `idle`; every session ends after `max`.
struct SessionLifetime: Sendable, Equatable {
    /// `auth.session.idle.ms`, 30 days.
    var idle: TimeInterval = 30 * 86_400
    /// `auth.session.max.ms`, 365 days.
    var max: TimeInterval = 365 * 86_400

    /// When a session signed in at `createdAt` and last used at `usedAt` ends, unless used again.
    func expiry(createdAt: Date, usedAt: Date) -> Date {
        min(usedAt.addingTimeInterval(idle), createdAt.addingTimeInterval(max))
    }
}

/// A session that has neither ended nor been revoked: a signed-in device.
struct OpenSession: Sendable, Equatable {
    var id: SessionID
    var createdAt: Date
    var lastUsedAt: Date
    var userAgent: String?
}

/// The device a request comes from, as its `User-Agent` says, for the list of my sessions: set by the
/// controllers around a sign-in or a refresh, read where the session is made or used.
enum SignInDevice {
    @TaskLocal static var userAgent: String?

    /// At most 200 characters, without control characters; nil when there is nothing left.
    static func named(_ header: String?) -> String? {
        guard let header else { return nil }
        let kept = String(
            String.UnicodeScalarView(header.unicodeScalars.filter { !CharacterSet.controlCharacters.contains($0) }).prefix(200)
        )
        .trimmingCharacters(in: .whitespaces)
        return kept.isEmpty ? nil : kept
    }
}
