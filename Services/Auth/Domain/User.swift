import Contracts
import Foundation

/// A member as auth stores them.
struct User: Sendable, Equatable {
    var id: UserID
    var email: String
    var name: String
    var pictureUrl: String?
    var sports: [Sport]
    var passwordHash: String?
    var facebookID: String?
    var roles: Set<Role>
    var createdAt: Date

    var publicProfile: PublicProfile { .init(id: id, name: name, pictureUrl: pictureUrl, sports: sports) }
    var myProfile: MyProfile { .init(id: id, email: email, name: name, pictureUrl: pictureUrl, sports: sports) }
    var sessionUser: SessionUser { .init(id: id, email: email, name: name, pictureUrl: pictureUrl) }
}
