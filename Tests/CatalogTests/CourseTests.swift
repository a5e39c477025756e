import Contracts
import Foundation
import ServiceKitTesting
import Testing

@Suite("Disc golf courses and venues")
struct CourseTests {
    /// Three holes laid out near Rakke DiscGolfPark.
    static let holes = [
        Hole(number: 1, par: 3, tee: Coordinates(lat: 58.98068, lng: 26.25523), basket: Coordinates(lat: 58.98140, lng: 26.25610)),
        Hole(number: 2, par: 4, tee: Coordinates(lat: 58.98160, lng: 26.25630), basket: Coordinates(lat: 58.98300, lng: 26.25700)),
        Hole(number: 3, par: 3, tee: Coordinates(lat: 58.98310, lng: 26.25650), basket: Coordinates(lat: 58.98250, lng: 26.25500)),
    ]

    static func course(_ holes: [Hole] = holes) -> CreateCourseRequest {
        CreateCourseRequest(
            name: "Rakke DiscGolfPark", location: Location(lat: 58.98068, lng: 26.25523, address: "Rakke, Lääne-Viru"),
            website: "https://discgolfpark.ee", holes: holes)
    }

    @Test("Administrators create courses; par and hole count come from the holes", arguments: TestStore.all)
    func create(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let admin = try await h.admin()
            let player = try await h.player()
            #expect(try await h.catalog.call(CatalogAPI.createCourse, body: Self.course(), token: player.accessToken).status == 403)
            #expect(try await h.catalog.call(CatalogAPI.createCourse, body: Self.course()).status == 401)

            let response = try await h.catalog.call(
                CatalogAPI.createCourse, body: Self.course(Self.holes.reversed()), token: admin.accessToken)
            #expect(response.status == 201)
            let course = try response.decode(Course.self)
            #expect(course.holeCount == 3 && course.par == 10)
            #expect(course.holes.map(\.number) == [1, 2, 3])

            // Anyone reads courses.
            #expect(try await h.catalog.call(CatalogAPI.course, course.id).decode(Course.self) == course)
            let list = try await h.catalog.call(CatalogAPI.courses).decode(Page<Course>.self)
            #expect(list.items.map(\.id) == [course.id])

            // Editing a hole changes the derived par; the next number adds a hole; a gap is refused.
            let edited = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "2", body: UpdateHoleRequest(par: 5, tee: Self.holes[1].tee, basket: Self.holes[1].basket),
                token: admin.accessToken)
            #expect(try edited.decode(Course.self).par == 11)
            let added = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "4", body: UpdateHoleRequest(par: 3, tee: Self.holes[0].tee, basket: Self.holes[0].basket),
                token: admin.accessToken)
            #expect(try added.decode(Course.self).holeCount == 4)
            let gap = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "9", body: UpdateHoleRequest(par: 3, tee: Self.holes[0].tee, basket: Self.holes[0].basket),
                token: admin.accessToken)
            #expect(gap.status == 422 && gap.problem?.errors?.first?.field == "number")
            let badPar = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "1",
                body: UpdateHoleRequest(par: 8, tee: Self.holes[0].tee, basket: Coordinates(lat: 0, lng: 181)),
                token: admin.accessToken)
            #expect(Set(badPar.problem?.errors?.map(\.field) ?? []) == ["par", "basket.lng"])
            let parOnly = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "1", body: UpdateHoleRequest(par: 8, tee: Self.holes[0].tee, basket: Self.holes[0].basket),
                token: admin.accessToken)
            #expect(parOnly.problem?.errors?.map(\.field) == ["par"])
            let byPlayer = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "1", body: UpdateHoleRequest(par: 3, tee: Self.holes[0].tee, basket: Self.holes[0].basket),
                token: player.accessToken)
            #expect(byPlayer.status == 403)
            #expect(try await h.catalog.call(CatalogAPI.course, course.id).decode(Course.self).par == 14)
        }
    }

    @Test("Course validation names duplicate holes, par out of range and bad coordinates")
    func validation() async throws {
        try await CatalogHarness.with { h in
            let admin = try await h.admin()
            var holes = Self.holes
            holes[1].number = 1
            holes[2].par = 1
            holes[0].tee = Coordinates(lat: 95, lng: 26)
            let response = try await h.catalog.call(CatalogAPI.createCourse, body: Self.course(holes), token: admin.accessToken)
            #expect(response.status == 422)
            #expect(Set(response.problem?.errors?.map(\.field) ?? []) == ["holes[2].par", "holes[0].tee.lat"])
            var repeated = Self.holes
            repeated[1].number = 1
            let duplicate = try await h.catalog.call(CatalogAPI.createCourse, body: Self.course(repeated), token: admin.accessToken)
            #expect(duplicate.problem?.errors?.map(\.field) == ["holes[1].number"])
            let gaps = try await h.catalog.call(
                CatalogAPI.createCourse,
                body: Self.course([Self.holes[0], Hole(number: 3, par: 3, tee: Self.holes[0].tee, basket: Self.holes[0].basket)]),
                token: admin.accessToken)
            #expect(gaps.status == 422 && gaps.problem?.errors?.first?.field == "holes")
            #expect(try await h.catalog.call(CatalogAPI.createCourse, body: Self.course([]), token: admin.accessToken).status == 422)
            #expect(try await h.catalog.call(CatalogAPI.courses).decode(Page<Course>.self).items.isEmpty)
        }
    }

    @Test("Navigation gives distance and bearing to the tee, the basket and the next tee")
    func navigation() async throws {
        try await CatalogHarness.with { h in
            let admin = try await h.admin()
            let course = try await h.catalog.call(CatalogAPI.createCourse, body: Self.course(), token: admin.accessToken).decode(
                Course.self)
            let response = try await h.catalog.call(
                CatalogAPI.navigation, course.id,
                query: Query.place(Coordinates(lat: 58.98000, lng: 26.25400)) + CatalogAPI.navigationHole(1))
            let navigation = try response.decode(Navigation.self)
            // Expected values computed separately (haversine, R = 6371008.8 m, in Python) for these points.
            #expect(navigation.hole == 1)
            #expect(abs(navigation.tee.distanceMeters - 103) <= 1)
            #expect(abs(navigation.tee.bearingDegrees - 43.0) < 0.2)
            #expect(abs(navigation.basket.distanceMeters - 197) <= 1)
            #expect(abs(navigation.basket.bearingDegrees - 37.7) < 0.2)
            let next = try #require(navigation.nextTee)
            #expect(next.hole == 2 && abs(next.distanceMeters - 221) <= 1 && abs(next.bearingDegrees - 36.5) < 0.2)

            let last = try await h.catalog.call(
                CatalogAPI.navigation, course.id,
                query: Query.place(Coordinates(lat: 58.98000, lng: 26.25400)) + CatalogAPI.navigationHole(3)
            ).decode(
                Navigation.self)
            #expect(last.nextTee == nil)
            let badHole = try await h.catalog.call(
                CatalogAPI.navigation, course.id, query: Query.place(Coordinates(lat: 58.98, lng: 26.25)) + CatalogAPI.navigationHole(4))
            #expect(badHole.status == 422 && badHole.problem?.errors?.first?.field == "hole")
            let badLat = try await h.catalog.call(CatalogAPI.navigation, course.id, rawQuery: "lat=-91&lng=26.25")
            #expect(badLat.status == 422 && badLat.problem?.errors?.first?.field == "lat")
            #expect(
                try await h.catalog.call(CatalogAPI.navigation, course.id, rawQuery: "lng=26.25").problem?.errors?.first?.field == "lat")
            #expect(
                try await h.catalog.call(CatalogAPI.navigation, CourseID(), query: Query.place(Coordinates(lat: 1, lng: 1))).status == 404)
        }
    }

    @Test(
        "Administrators rename, move and delete courses and remove holes (the later ones move up); anyone finds courses by name",
        arguments: TestStore.all)
    func keptUpToDate(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let admin = try await h.admin(), player = try await h.player()
            let course = try await h.catalog.call(CatalogAPI.createCourse, body: Self.course(), token: admin.accessToken).decode(
                Course.self)
            let other = try await h.catalog.call(
                CatalogAPI.createCourse,
                body: CreateCourseRequest(name: "Kadriorg Park", location: Location(lat: 59.44, lng: 24.79), holes: Self.holes),
                token: admin.accessToken
            ).decode(Course.self)
            func named(_ text: String) async throws -> [CourseID] {
                try await h.catalog.call(CatalogAPI.courses, query: CatalogAPI.courseText(text)).decode(Page<Course>.self).items.map(\.id)
            }
            #expect(try await named("rakke") == [course.id])
            #expect(try await named("PARK") == [other.id, course.id])
            #expect(try await named("100%").isEmpty)

            let change = UpdateCourseRequest(
                name: "Rakke Kivimurru", location: Location(lat: 58.99, lng: 26.26), website: "https://rakke.ee")
            #expect(try await h.catalog.call(CatalogAPI.updateCourse, course.id, body: change, token: player.accessToken).status == 403)
            let bad = try await h.catalog.call(
                CatalogAPI.updateCourse, course.id, body: UpdateCourseRequest(name: " ", website: "ftp://x"), token: admin.accessToken)
            #expect(bad.status == 422 && Set(bad.problem?.errors?.map(\.field) ?? []) == ["name", "website"])
            let renamed = try await expect(200, h.catalog.call(CatalogAPI.updateCourse, course.id, body: change, token: admin.accessToken))
                .decode(Course.self)
            #expect(renamed.name == "Rakke Kivimurru" && renamed.location.lat == 58.99 && renamed.website == "https://rakke.ee")
            #expect(renamed.holes == course.holes)
            #expect(try await named("kivimurru") == [course.id])

            // Hole 2 goes; hole 3 becomes 2 with its par and positions.
            #expect(try await h.catalog.call(CatalogAPI.deleteHole, course.id, "2", token: player.accessToken).status == 403)
            let shorter = try await expect(200, h.catalog.call(CatalogAPI.deleteHole, course.id, "2", token: admin.accessToken))
                .decode(Course.self)
            #expect(shorter.holes.map(\.number) == [1, 2] && shorter.holes.map(\.par) == [3, 3] && shorter.par == 6)
            #expect(shorter.holes[1].tee == Self.holes[2].tee)
            #expect(try await h.catalog.call(CatalogAPI.deleteHole, course.id, "3", token: admin.accessToken).status == 422)
            _ = try await expect(200, h.catalog.call(CatalogAPI.deleteHole, course.id, "1", token: admin.accessToken))
            let last = try await h.catalog.call(CatalogAPI.deleteHole, course.id, "1", token: admin.accessToken)
            #expect(last.status == 422 && last.problem?.errors?.map(\.field) == ["number"])

            #expect(try await h.catalog.call(CatalogAPI.deleteCourse, course.id, token: player.accessToken).status == 403)
            #expect(try await h.catalog.call(CatalogAPI.deleteCourse, course.id, token: admin.accessToken).status == 204)
            #expect(try await h.catalog.call(CatalogAPI.course, course.id).status == 404)
            #expect(try await h.catalog.call(CatalogAPI.deleteCourse, course.id, token: admin.accessToken).status == 404)
            #expect(try await named("park") == [other.id])
        }
    }

    @Test(
        "A hole may wait for its tee and basket: the course is not navigable, navigation to that hole is a 409, and the tee comes with the basket",
        arguments: TestStore.all)
    func unsurveyedHoles(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let admin = try await h.admin()
            var holes = Self.holes
            holes[1].tee = nil
            holes[1].basket = nil
            let course = try await expect(201, h.catalog.call(CatalogAPI.createCourse, body: Self.course(holes), token: admin.accessToken))
                .decode(Course.self)
            #expect(!course.navigationAvailable && course.holes[1].tee == nil && course.par == 10)
            let here = Query.place(Coordinates(lat: 58.98, lng: 26.254))
            let first = try await h.catalog.call(CatalogAPI.navigation, course.id, query: here + CatalogAPI.navigationHole(1))
                .decode(Navigation.self)
            #expect(first.nextTee == nil)
            let second = try await h.catalog.call(CatalogAPI.navigation, course.id, query: here + CatalogAPI.navigationHole(2))
            #expect(second.status == 409 && second.problem?.code == "NO_HOLE_POSITIONS")

            let half = try await h.catalog.call(
                CatalogAPI.saveHole, course.id, "2", body: UpdateHoleRequest(par: 4, tee: Self.holes[1].tee), token: admin.accessToken)
            #expect(half.status == 422 && half.problem?.errors?.map(\.field) == ["basket"])
            let surveyed = try await expect(
                200,
                h.catalog.call(
                    CatalogAPI.saveHole, course.id, "2",
                    body: UpdateHoleRequest(par: 4, tee: Self.holes[1].tee, basket: Self.holes[1].basket),
                    token: admin.accessToken)
            ).decode(Course.self)
            #expect(surveyed.navigationAvailable)
            #expect(try await h.catalog.call(CatalogAPI.navigation, course.id, query: here + CatalogAPI.navigationHole(2)).status == 200)
        }
    }

    @Test("Venues: administrators create them, anyone reads them", arguments: TestStore.all)
    func venues(store: TestStore) async throws {
        try await CatalogHarness.with(store: store) { h in
            let admin = try await h.admin()
            let request = CreateVenueRequest(
                name: "Casey Fields", location: Location(lat: -38.1036, lng: 145.3128, address: "Cranbourne East VIC"),
                sports: [.soccer, .cricket, .soccer])
            #expect(try await h.catalog.call(CatalogAPI.createVenue, body: request, token: try await h.player().accessToken).status == 403)
            let created = try await h.catalog.call(CatalogAPI.createVenue, body: request, token: admin.accessToken)
            #expect(created.status == 201)
            let venue = try created.decode(Venue.self)
            #expect(venue.sports == [.soccer, .cricket])
            #expect(try await h.catalog.call(CatalogAPI.venue, venue.id).decode(Venue.self) == venue)
            #expect(try await h.catalog.call(CatalogAPI.venue, VenueID()).status == 404)
            var bad = request
            bad.sports = []
            bad.website = "ftp://x"
            let invalid = try await h.catalog.call(CatalogAPI.createVenue, body: bad, token: admin.accessToken)
            #expect(Set(invalid.problem?.errors?.map(\.field) ?? []) == ["website"])
            bad.website = nil
            let noSports = try await h.catalog.call(CatalogAPI.createVenue, body: bad, token: admin.accessToken)
            #expect(noSports.problem?.errors?.map(\.field) == ["sports"])
        }
    }

    @Test("The sport list names every sport")
    func sports() async throws {
        try await CatalogHarness.with { h in
            let sports = try await h.catalog.call(CatalogAPI.sports).decode(Page<SportInfo>.self)
            #expect(sports.items.map(\.id) == Sport.allCases)
            #expect(sports.items.first { $0.id == .discGolf }?.name == "Disc golf")
        }
    }
}
