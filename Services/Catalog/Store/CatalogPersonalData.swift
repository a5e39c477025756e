import Contracts
import SQLKit
import ServiceFeatures

/// What catalog holds of a player, for their export: the teams they belong to or asked to join
/// (with the role), the leagues they manage, and their bookmarked news.
enum CatalogPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "teams", columns: [.text("team_id"), .text("name"), .text("sport"), .text("role"), .time("since")]
        ) { user in
            """
            SELECT t.id AS team_id, t.name, t.sport, m.role, m.created_at AS since FROM memberships m
            JOIN teams t ON t.id = m.team_id WHERE m.user_id = \(bind: user.description) ORDER BY m.created_at, t.id
            """
        },
        PersonalDataSection(
            "managedLeagues", columns: [.text("league_id"), .text("name"), .text("sport"), .text("privacy"), .time("created_at")]
        ) { user in
            """
            SELECT id AS league_id, name, sport, privacy, created_at FROM leagues
            WHERE manager_id = \(bind: user.description) ORDER BY created_at, id
            """
        },
        PersonalDataSection(
            "bookmarks", columns: [.text("article_id"), .text("title"), .text("url"), .time("created_at")]
        ) { user in
            """
            SELECT b.article_id, a.title, a.url, b.created_at FROM bookmarks b JOIN news_articles a ON a.id = b.article_id
            WHERE b.user_id = \(bind: user.description) ORDER BY b.seq
            """
        },
    ])
}
