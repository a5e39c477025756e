import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/users/...`: profiles, follows and friend matching. Every route needs a signed-in user.
struct UsersController: Controller {
    let profiles: Profiles
    let accounts: Accounts
    let passwords: Passwords
    let addresses: EmailAddresses
    let secondFactors: SecondFactors
    let deletion: AccountDeletion
    let exports: DataExports

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.me, use: me)
        router.on(AuthAPI.updateMe, use: updateMe)
        router.on(AuthAPI.deleteMe, use: deleteMe)
        router.on(AuthAPI.changePassword, use: changePassword)
        router.on(AuthAPI.changeEmail, use: changeEmail)
        router.on(AuthAPI.resendVerification, use: resendVerification)
        router.on(AuthAPI.setUpSecondFactor, use: setUpSecondFactor)
        router.on(AuthAPI.confirmSecondFactor, use: confirmSecondFactor)
        router.on(AuthAPI.turnOffSecondFactor, use: turnOffSecondFactor)
        router.on(AuthAPI.sessions, use: sessions)
        router.on(AuthAPI.endSession, use: endSession)
        router.on(AuthAPI.requestExport, use: requestExport)
        router.on(AuthAPI.export, use: export)
        router.on(AuthAPI.following, use: following)
        router.on(AuthAPI.followers, use: followers)
        router.on(AuthAPI.matchFriends, use: matchFriends)
        router.on(AuthAPI.profile, use: getProfile)
        router.on(AuthAPI.follow, use: follow)
        router.on(AuthAPI.unfollow, use: unfollow)
    }

    /// `GET /v1/users/me`
    @Sendable func me(_ request: Request, _ context: AuthenticatedContext) async throws -> MyProfile {
        try await profiles.me(context.userID)
    }

    /// `PATCH /v1/users/me`
    @Sendable func updateMe(_ body: UpdateProfileRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> MyProfile {
        try await profiles.update(context.userID, with: body)
    }

    /// `DELETE /v1/users/me`
    @Sendable func deleteMe(_ body: DeleteAccountRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await deletion.delete(context.userID, proof: body)
        return NoContent()
    }

    /// `PUT /v1/users/me/password`
    @Sendable func changePassword(_ body: ChangePasswordRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> NoContent
    {
        try await passwords.change(body, user: context.userID, session: context.identity.sessionID)
        return NoContent()
    }

    /// `PUT /v1/users/me/email`. A signed-in player's requests are counted by account rather than by address.
    @Sendable func changeEmail(_ body: ChangeEmailRequest, _ request: Request, _ context: AuthenticatedContext) async throws -> Accepted {
        try await addresses.change(body, of: context.userID, client: "user:\(context.userID)")
        return Accepted()
    }

    /// `POST /v1/auth/email/verification`
    @Sendable func resendVerification(_ request: Request, _ context: AuthenticatedContext) async throws -> Accepted {
        try await addresses.resend(for: context.userID, client: "user:\(context.userID)")
        return Accepted()
    }

    /// `POST /v1/users/me/second-factor`
    @Sendable func setUpSecondFactor(_ request: Request, _ context: AuthenticatedContext) async throws -> SecondFactorSetup {
        try await secondFactors.setUp(for: context.userID)
    }

    /// `POST /v1/users/me/second-factor/confirm`
    @Sendable func confirmSecondFactor(_ body: SecondFactorCode, _ request: Request, _ context: AuthenticatedContext) async throws
        -> RecoveryCodes
    {
        try await secondFactors.confirm(body, for: context.userID)
    }

    /// `DELETE /v1/users/me/second-factor`
    @Sendable func turnOffSecondFactor(_ body: SecondFactorCode, _ request: Request, _ context: AuthenticatedContext) async throws
        -> NoContent
    {
        try await secondFactors.turnOff(body, for: context.userID)
        return NoContent()
    }

    /// `GET /v1/users/me/sessions`
    @Sendable func sessions(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<DeviceSession> {
        Page(items: try await accounts.devices(of: context.userID, current: context.identity.sessionID), nextCursor: nil)
    }

    /// `DELETE /v1/users/me/sessions/{id}`
    @Sendable func endSession(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await accounts.end(try context.parameters.id(SessionID.self), of: context.userID)
        return NoContent()
    }

    /// `POST /v1/users/me/exports`
    @Sendable func requestExport(_ request: Request, _ context: AuthenticatedContext) async throws -> DataExport {
        try await exports.request(for: context.userID)
    }

    /// `GET /v1/users/me/exports/{id}`
    @Sendable func export(_ request: Request, _ context: AuthenticatedContext) async throws -> DataExport {
        try await exports.export(try context.parameters.id(DataExportID.self), of: context.userID)
    }

    /// `GET /v1/users/me/following`
    @Sendable func following(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<PublicProfile> {
        try await profiles.following(of: context.userID, page: try PageRequest(request))

    }

    /// `GET /v1/users/me/followers`
    @Sendable func followers(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<PublicProfile> {
        try await profiles.followers(of: context.userID, page: try PageRequest(request))

    }

    /// `POST /v1/users/me/friends/match`
    @Sendable func matchFriends(_ body: FriendMatchRequest, _ request: Request, _ context: AuthenticatedContext) async throws
        -> FriendMatchResponse
    {
        try await profiles.matchFriends(body.facebookIds, for: context.userID)
    }

    /// `GET /v1/users/{id}`
    @Sendable func getProfile(_ request: Request, _ context: AuthenticatedContext) async throws -> PublicProfile {
        try await profiles.profile(try context.parameters.id(UserID.self))
    }

    /// `PUT /v1/users/{id}/follow`
    @Sendable func follow(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await profiles.follow(try context.parameters.id(UserID.self), by: context.userID)
        return NoContent()
    }

    /// `DELETE /v1/users/{id}/follow`
    @Sendable func unfollow(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await profiles.unfollow(try context.parameters.id(UserID.self), by: context.userID)
        return NoContent()
    }
}

/// `/v1/admin/...` of auth: what operators follow.
struct AdminController: Controller {
    let deletions: DeletionTracking

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.deletionProgress, use: deletionProgress)
    }

    /// `GET /v1/admin/deletions/{id}`
    @Sendable func deletionProgress(_ request: Request, _ context: AuthenticatedContext) async throws -> DeletionProgress {
        try await deletions.progress(of: try context.parameters.id(UserID.self), askedBy: context.identity)
    }
}

/// `/internal/...` of auth: what other modules read.
struct AuthInternalController: Controller {
    let profiles: Profiles
    let keys: LocalKeySource

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.Internal.revokedSessions, use: revokedSessions)
        router.on(AuthAPI.Internal.profiles, use: lookUpProfiles)
        router.on(AuthAPI.Internal.profileSnapshot, use: profileSnapshot)
        // A player as a reporter sees them: their name and picture, which anyone signed in sees.
        router.on(ModerationAPI.Internal.subject(at: .auth), use: subject)
    }

    /// `GET /internal/sessions/revoked`
    @Sendable func revokedSessions(_ request: Request, _ context: HuddleRequestContext) async throws -> RevokedSessions {
        try await keys.revokedSessions(after: try request.query(AuthAPI.Internal.revokedAfter))
    }

    /// `POST /internal/users/profiles`
    @Sendable func lookUpProfiles(_ body: ProfilesRequest, _ request: Request, _ context: HuddleRequestContext) async throws
        -> ProfilesResponse
    {
        try await profiles.publicProfiles(body.ids)
    }

    /// `GET /internal/snapshots/profiles`
    @Sendable func profileSnapshot(_ request: Request, _ context: HuddleRequestContext) async throws -> Page<PublicProfile> {
        try await profiles.snapshot(try PageRequest(request))
    }

    /// `GET /internal/moderation/subjects/{type}/{id}`
    @Sendable func subject(_ request: Request, _ context: HuddleRequestContext) async throws -> SubjectSnapshot {
        _ = try context.parameters.subjectType(heldBy: .auth)
        let profile = try await profiles.profile(try context.parameters.id(UserID.self))
        let text = [profile.name, profile.pictureUrl].compactMap { $0 }.joined(separator: "\n")
        return SubjectSnapshot(
            content: SubjectContent(
                type: .user, id: SubjectID(profile.id.uuid), ownerId: profile.id, ownerName: profile.name, text: text, at: nil))
    }
}
