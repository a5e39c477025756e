import Contracts
import Foundation
import HuddleKit
import MediaService
import ServiceKitTesting
import Testing

/// Photos attached where people look, through the gateway with HuddleKit: a profile picture, a team's
/// and a league's logo, each only the uploader's own upload of that purpose, and a replaced one gone.
@Suite("Pictures attached to profiles, teams and leagues")
struct PicturesAttachedTests {
    /// A picture no other test uploads, so that its content-addressed sizes are its own.
    static func picture() throws -> Data { try ImageProcessor.sampleJPEG(width: 600 + Int.random(in: 0..<400), height: 450) }

    @Test(
        "a profile picture shows in three sizes on my profile and to others, pictureUrl its medium one; a new one replaces it and the old one's files go",
        arguments: StackTests.stores)
    func profilePicture(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let pia = HuddleKitTests.client(gateway)
            try await pia.register(
                email: HuddleKitTests.email(), password: "pia password 1", name: "Pia Picture", picture: try Self.picture())
            let first = try await pia.send(AuthAPI.me)
            let sizes = try #require(first.picture)
            #expect(first.pictureUrl == sizes.medium)
            for url in [sizes.small, sizes.medium, sizes.large] { #expect(try await MediaThroughGatewayTests.fetch(url).status == 200) }

            let stan = try await StackTests.player(gateway, "Stan Stranger")
            let seen = try await stan.send(AuthAPI.profile, try await pia.userID)
            #expect(seen.picture == sizes && seen.pictureUrl == sizes.medium)

            let second = try await pia.setProfilePicture(try Self.picture())
            #expect(second.picture != nil && second.picture != sizes && second.pictureUrl == second.picture?.medium)
            // A bucket may answer 403 for a key it does not have, as S3 does to readers who may not list it.
            #expect([404, 403].contains(try await MediaThroughGatewayTests.fetch(sizes.medium).status))

            let removed = try await pia.send(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(nil)))
            #expect(removed.picture == nil && removed.pictureUrl == nil)
        }
    }

    @Test(
        "only my own completed upload of the right purpose is attached, once: another's, a logo as an avatar, one attached already are refused naming the field",
        arguments: StackTests.stores)
    func onlyMineOnce(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let owner = try await StackTests.player(gateway, "Olga Owner"), stranger = try await StackTests.player(gateway, "Otto Other")
            let avatar = try await owner.uploadPhoto(try Self.picture(), purpose: .avatar)
            let logo = try await owner.uploadPhoto(try Self.picture(), purpose: .teamLogo)
            func refused(_ app: HuddleClient, _ id: MediaID) async throws -> Problem? {
                do {
                    _ = try await app.send(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(id)))
                    return nil
                } catch let error as HuddleError {
                    return error.problem
                }
            }
            for (app, id) in [(stranger, avatar.id), (owner, logo.id), (owner, MediaID())] {
                let problem = try #require(try await refused(app, id))
                #expect(problem.status == 422 && problem.code == "MEDIA_NOT_ATTACHABLE")
                #expect(problem.errors?.map(\.field) == ["pictureMediaId"], "\(problem)")
            }
            _ = try await owner.send(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(avatar.id)))
            // Set again, the same: a retry after a lost answer.
            #expect(try await owner.send(AuthAPI.updateMe, body: UpdateProfileRequest(pictureMediaId: .some(avatar.id))).picture != nil)
            let team = try await owner.send(CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Attach Once"))
            let other = try await owner.send(CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Attach Twice"))
            await #expect(throws: HuddleError.self) {
                _ = try await owner.send(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(logoMediaId: .some(avatar.id)))
            }
            #expect(try await owner.send(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(logoMediaId: .some(logo.id))).logo != nil)
            do {
                _ = try await owner.send(CatalogAPI.updateTeam, other.id, body: UpdateTeamRequest(logoMediaId: .some(logo.id)))
                Issue.record("one logo attached to two teams")
            } catch let error as HuddleError {
                #expect(error.problem?.detail?.contains("attached to something else") == true, "\(error)")
            }
        }
    }

    @Test(
        "a team's and a league's logo, set by their manager, show to everyone who sees them; a player cannot change them",
        arguments: StackTests.stores)
    func logos(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let manager = try await StackTests.player(gateway, "Mona Manager"), player = try await StackTests.player(gateway, "Paul Player")
            let team = try await manager.send(CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Logo Lions"))
            let withLogo = try await manager.setLogo(try Self.picture(), ofTeam: team.id)
            let logo = try #require(withLogo.logo)
            #expect(try await player.send(CatalogAPI.team, team.id).logo == logo)
            #expect(try await MediaThroughGatewayTests.fetch(logo.large).status == 200)

            let league = try await manager.send(
                CatalogAPI.createLeague,
                body: CreateLeagueRequest(
                    name: "Logo League", sport: .soccer, skill: .any, ageGroup: .adult, gender: .coed, privacy: .public))
            let renamed = try await manager.setLogo(try Self.picture(), ofLeague: league.id)
            #expect(renamed.logo != nil && renamed.logo != logo)
            #expect(try await player.send(CatalogAPI.league, league.id).logo == renamed.logo)

            let stolen = try await player.uploadPhoto(try Self.picture(), purpose: .teamLogo)
            await #expect(throws: HuddleError.self) {
                _ = try await player.send(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(logoMediaId: .some(stolen.id)))
            }
            let cleared = try await manager.send(CatalogAPI.updateTeam, team.id, body: UpdateTeamRequest(logoMediaId: .some(nil)))
            #expect(cleared.logo == nil)
            #expect([404, 403].contains(try await MediaThroughGatewayTests.fetch(logo.large).status))
        }
    }
}
