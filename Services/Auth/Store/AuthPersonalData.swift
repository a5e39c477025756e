import Contracts
import SQLKit
import ServiceFeatures

/// What auth holds of a player, for their export: the profile with how they sign in (never a
/// credential), whom they follow and who follows them, their sessions and whether a second factor
/// guards the account (never its secret or recovery codes).
enum AuthPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "profile",
            columns: [
                .text("user_id"), .text("email"), .text("name"), .text("picture_url"), .text("sports"), .text("roles"),
                .time("created_at"), .boolean("has_password"), .text("facebook_id"), .text("apple_id"), .boolean("apple_email_forwarding"),
                .text("google_id"), .time("email_verified_at"), .text("locale"),
            ]
        ) { user in
            """
            SELECT id AS user_id, email, name, picture_url, sports, roles, created_at,
            CASE WHEN password_hash IS NULL THEN FALSE ELSE TRUE END AS has_password, facebook_id, apple_id, apple_email_forwarding,
            google_id, email_verified_at, locale
            FROM users WHERE id = \(bind: user.description)
            """
        },
        PersonalDataSection("following", columns: [.text("user_id"), .text("name"), .time("since")]) { user in
            """
            SELECT f.followee_id AS user_id, u.name, f.created_at AS since FROM follows f JOIN users u ON u.id = f.followee_id
            WHERE f.follower_id = \(bind: user.description) ORDER BY f.seq
            """
        },
        PersonalDataSection("followers", columns: [.text("user_id"), .text("name"), .time("since")]) { user in
            """
            SELECT f.follower_id AS user_id, u.name, f.created_at AS since FROM follows f JOIN users u ON u.id = f.follower_id
            WHERE f.followee_id = \(bind: user.description) ORDER BY f.seq
            """
        },
        PersonalDataSection(
            "sessions",
            columns: [
                .text("session_id"), .time("created_at"), .time("last_used_at"), .text("user_agent"), .time("expires_at"),
                .time("revoked_at"),
            ]
        ) { user in
            """
            SELECT id AS session_id, created_at, last_used_at, user_agent, expires_at, revoked_at FROM sessions
            WHERE user_id = \(bind: user.description) ORDER BY created_at
            """
        },
        PersonalDataSection(
            "secondFactor", columns: [.time("created_at"), .time("confirmed_at"), .integer("recovery_codes_left")]
        ) { user in
            """
            SELECT created_at, confirmed_at,
            (SELECT COUNT(*) FROM recovery_codes r WHERE r.user_id = f.user_id AND r.used_at IS NULL) AS recovery_codes_left
            FROM second_factors f WHERE user_id = \(bind: user.description)
            """
        },
    ])
}
