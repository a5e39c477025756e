import Contracts
import Hummingbird
import ServerContracts
import ServiceHTTP

/// `/v1/users/...`: profiles, follows and friend matching. Every route needs a signed-in user.
struct UsersController: Controller {
    let profiles: Profiles
    let deletion: AccountDeletion
    let exports: DataExports

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.me) { _, context in try await profiles.me(context.userID) }
        router.on(AuthAPI.updateMe) { body, _, context in try await profiles.update(context.userID, with: body) }
        router.on(AuthAPI.deleteMe) { body, _, context in
            try await deletion.delete(context.userID, proof: body)
            return NoContent()
        }
        router.on(AuthAPI.requestExport) { _, context in try await exports.request(for: context.userID) }
        router.on(AuthAPI.export) { _, context in
            try await exports.export(try context.parameters.id(DataExportID.self), of: context.userID)
        }
        router.on(AuthAPI.following) { request, context in try await profiles.following(of: context.userID, page: try PageRequest(request))
        }
        router.on(AuthAPI.followers) { request, context in try await profiles.followers(of: context.userID, page: try PageRequest(request))
        }
        router.on(AuthAPI.matchFriends) { body, _, context in try await profiles.matchFriends(body.facebookIds, for: context.userID) }
        router.on(AuthAPI.profile) { _, context in try await profiles.profile(try context.parameters.id(UserID.self)) }
        router.on(AuthAPI.follow) { _, context in
            try await profiles.follow(try context.parameters.id(UserID.self), by: context.userID)
            return NoContent()
        }
        router.on(AuthAPI.unfollow) { _, context in
            try await profiles.unfollow(try context.parameters.id(UserID.self), by: context.userID)
            return NoContent()
        }
    }
}

/// `/v1/admin/...` of auth: what operators follow.
struct AdminController: Controller {
    let deletions: DeletionTracking

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.deletionProgress) { _, context in
            try await deletions.progress(of: try context.parameters.id(UserID.self), askedBy: context.identity)
        }
    }
}

/// `/internal/...` of auth: what other modules read.
struct AuthInternalController: Controller {
    let profiles: Profiles
    let keys: LocalKeySource

    func register(on router: Router<HuddleRequestContext>) {
        router.on(AuthAPI.Internal.revokedSessions) { request, _ in
            try await keys.revokedSessions(after: try request.query(AuthAPI.Internal.revokedAfter))
        }
        router.on(AuthAPI.Internal.profiles) { body, _, _ in try await profiles.publicProfiles(body.ids) }
        router.on(AuthAPI.Internal.profileSnapshot) { request, _ in try await profiles.snapshot(try PageRequest(request)) }
        // A player as a reporter sees them: their name and picture, which anyone signed in sees.
        router.on(ModerationAPI.Internal.subject(at: .auth)) { _, context in
            _ = try context.parameters.subjectType(heldBy: .auth)
            let profile = try await profiles.profile(try context.parameters.id(UserID.self))
            let text = [profile.name, profile.pictureUrl].compactMap { $0 }.joined(separator: "\n")
            return SubjectSnapshot(
                content: SubjectContent(
                    type: .user, id: SubjectID(profile.id.uuid), ownerId: profile.id, ownerName: profile.name, text: text, at: nil))
        }
    }
}
