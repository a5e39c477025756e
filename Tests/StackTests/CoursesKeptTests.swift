import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// A disc golf club keeps its course up to date, and players play where no course is listed.
@Suite("Courses kept up to date, and rounds off the list")
struct CoursesKeptTests {
    @Test(
        "an administrator adds a course whose last hole is not surveyed, renames it and deletes it, and search follows; a player plays a course off the list and a friend joins",
        arguments: StackTests.stores)
    func courseLifecycle(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway), ann = try await gateway.register(name: "Ann Thrower")
            let ben = try await gateway.register(name: "Ben Thrower")
            let place = Coordinates(lat: 58.3801, lng: 26.7022)
            let marker = UUID().uuidString.prefix(6)
            let holes = [
                Hole(number: 1, par: 3, tee: place, basket: Coordinates(lat: 58.3805, lng: 26.7025)),
                Hole(number: 2, par: 4),
            ]
            let course = try await gateway.value(
                CatalogAPI.createCourse,
                body: CreateCourseRequest(name: "Ülejõe \(marker)", location: Location(lat: place.lat, lng: place.lng), holes: holes),
                token: admin.accessToken)
            #expect(!course.navigationAvailable)
            let unsurveyed = try await gateway.call(
                CatalogAPI.navigation, course.id, query: Query.place(place) + CatalogAPI.navigationHole(2), token: ann.accessToken)
            #expect(unsurveyed.status == 409 && unsurveyed.problem?.code == "NO_HOLE_POSITIONS")
            func nearby() async throws -> [Course] {
                try await gateway.value(
                    SearchAPI.courses, query: Query.place(place) + Query.radiusKm(1) + Query.limit(100), token: ann.accessToken
                )
                .items.map(\.item).filter { $0.id == course.id }
            }
            #expect(try await eventually { try await nearby().map(\.name) == ["Ülejõe \(marker)"] })

            _ = try await gateway.value(
                CatalogAPI.updateCourse, course.id, body: UpdateCourseRequest(name: "Ülejõe Park \(marker)"), token: admin.accessToken)
            #expect(
                try await gateway.value(CatalogAPI.courses, query: CatalogAPI.courseText("park \(marker)"), token: ann.accessToken).items
                    .map(\.id) == [course.id])
            #expect(try await eventually { try await nearby().map(\.name) == ["Ülejõe Park \(marker)"] })
            let round = try await gateway.value(GamesAPI.startRound, body: StartRoundRequest(courseId: course.id), token: ann.accessToken)
            #expect(try await gateway.call(CatalogAPI.deleteCourse, course.id, token: admin.accessToken).status == 204)
            #expect(try await eventually { try await nearby().isEmpty })
            // The round played there keeps its card.
            #expect(try await gateway.value(GamesAPI.round, round.id, token: ann.accessToken).courseName == "Ülejõe Park \(marker)")

            let offList = try await gateway.value(
                GamesAPI.startRound,
                body: StartRoundRequest(
                    course: UnlistedCourse(name: "Farm field", holes: [.init(number: 1, par: 3), .init(number: 2, par: 5)])),
                token: ann.accessToken)
            #expect(offList.courseUnlisted == true && offList.par == 8)
            let joined = try await gateway.value(
                GamesAPI.addRoundPlayer, offList.id, body: RoundPlayerRequest(userId: ben.user.id), token: ann.accessToken)
            #expect(joined.players.map(\.name) == ["Ann Thrower", "Ben Thrower"])
            #expect(try await gateway.value(GamesAPI.round, offList.id, token: ben.accessToken).version == joined.version)
            #expect(
                try await eventually {
                    try await gateway.value(NotifyAPI.inbox, token: ben.accessToken).items.contains {
                        $0.category == .addedToRound && $0.data.roundId == offList.id
                    }
                })
        }
    }
}
