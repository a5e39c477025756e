import Contracts
import Hummingbird
import ServiceKit

/// Catalog's path ids, each with its one 404 wording.
extension Parameters {
    func teamID() throws -> TeamID { try id(as: TeamID.self, missing: "No team with id \(get("id") ?? "").") }
    func userID() throws -> UserID { try id("userId", as: UserID.self, missing: "No player with id \(get("userId") ?? "").") }
    func leagueID() throws -> LeagueID { try id(as: LeagueID.self, missing: "No league with id \(get("id") ?? "").") }
    func courseID() throws -> CourseID { try id(as: CourseID.self, missing: "No course with id \(get("id") ?? "").") }
    func venueID() throws -> VenueID { try id(as: VenueID.self, missing: "No venue with id \(get("id") ?? "").") }
    func articleID() throws -> ArticleID { try id(as: ArticleID.self, missing: "No article with id \(get("id") ?? "").") }
}
