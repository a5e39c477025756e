import Contracts
import Foundation
import ServerContracts

/// A member as auth stores them.
struct User: Sendable, Equatable {
    var id: UserID
    var email: String
    var name: String
    var pictureUrl: String?
    var sports: [Sport]
    var passwordHash: String?
    var facebookID: String?
    /// Apple's user id (`sub`) for Sign in with Apple.
    var appleID: String? = nil
    /// Google's user id (`sub`) for Sign in with Google.
    var googleID: String? = nil
    /// Apple's refresh token for this member, sealed (`TokenSealer`): deletion revokes it.
    var appleRefreshToken: String? = nil
    /// Whether Apple forwards mail to the member's private relay address (its last notification says).
    var appleEmailForwarding: Bool? = nil
    var roles: Set<Role>
    var createdAt: Date
    /// When the member proved the address theirs (a mailed token, a reset, or a provider that vouched for it).
    var emailVerifiedAt: Date? = nil
    /// The picture uploaded to media; `pictureUrl` is then its medium size.
    var picture: AttachedPicture? = nil
    /// BCP 47, as the member set it (`Language(tag:)` reads it).
    var locale: String? = nil

    init(
        id: UserID, email: String, name: String, pictureUrl: String?, sports: [Sport], passwordHash: String?, facebookID: String?,
        appleID: String? = nil, appleRefreshToken: String? = nil, appleEmailForwarding: Bool? = nil, roles: Set<Role>, createdAt: Date,
        emailVerifiedAt: Date? = nil, googleID: String? = nil, picture: AttachedPicture? = nil, locale: String? = nil
    ) {
        self.locale = locale
        self.picture = picture
        self.emailVerifiedAt = emailVerifiedAt
        self.googleID = googleID
        self.id = id
        self.email = email
        self.name = name
        self.pictureUrl = pictureUrl
        self.sports = sports
        self.passwordHash = passwordHash
        self.facebookID = facebookID
        self.appleID = appleID
        self.appleRefreshToken = appleRefreshToken
        self.appleEmailForwarding = appleEmailForwarding
        self.roles = roles
        self.createdAt = createdAt
    }

    var publicProfile: PublicProfile { .init(id: id, name: name, pictureUrl: pictureUrl, sports: sports, picture: picture?.sizes) }
    var myProfile: MyProfile {
        .init(
            id: id, email: email, name: name, pictureUrl: pictureUrl, sports: sports, emailVerified: emailVerifiedAt != nil,
            picture: picture?.sizes, locale: locale)
    }
    var sessionUser: SessionUser { .init(id: id, email: email, name: name, pictureUrl: pictureUrl) }
}

/// An outside account a member signs in with, and where auth keeps its id.
enum SignInProvider: String, Sendable {
    case facebook, apple, google

    var userID: WritableKeyPath<User, String?> {
        switch self {
        case .facebook: \.facebookID
        case .apple: \.appleID
        case .google: \.googleID
        }
    }
}
