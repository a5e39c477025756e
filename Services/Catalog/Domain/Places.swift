import Contracts
import Foundation
import SQLKit
import ServerContracts
import ServiceHTTP
import ServiceStore

/// Disc golf courses and venues. Anyone reads them; only administrators change them.
struct Places: Sendable {
    let database: Database
    let courses: any CourseStore
    let venues: any VenueStore
    var outbox: Outbox { Outbox(now: database.now) }

    func createCourse(_ request: CreateCourseRequest, by identity: Identity) async throws -> Course {
        try requireAdministrator(identity)
        try FieldRules.require(
            CatalogValidation.name(request.name) + FieldRules.location(request.location)
                + CatalogValidation.website(request.website) + CatalogValidation.holes(request.holes))
        let course = Course(
            id: CourseID(), name: request.name.trimmingBlanks, location: request.location, website: request.website,
            holes: request.holes)
        try await database.transaction { sql in
            try await courses.insert(course, on: sql)
            try await publish(course, on: sql)
        }
        return course
    }

    func course(_ id: CourseID) async throws -> Course {
        return try await database.read { sql in try await courses.course(id, on: sql) }.orMissing(id)
    }

    /// The course's stored version (`Migration.rowVersions`); 404 for a course that is not there.
    func version(of id: CourseID) async throws -> Int {
        try await database.read { sql in try await RowVersions(of: "courses").versions(of: [id.description], on: sql) }[id.description]
            .orMissing(id)
    }

    func courses(matching text: String?, page: PageRequest) async throws -> Page<Course> {
        let after = try NameCursor(page)
        let rows = try await database.read { sql in
            try await courses.courses(matching: text?.trimmingBlanks, after: after, limit: page.limit + 1, on: sql)
        }
        return page.page(rows) { NameCursor.after(name: $0.name, id: $0.id) }
    }

    func updateCourse(_ id: CourseID, with request: UpdateCourseRequest, by identity: Identity) async throws -> Course {
        try requireAdministrator(identity)
        try FieldRules.require(
            (request.name.map { CatalogValidation.name($0) } ?? []) + (request.location.map { FieldRules.location($0) } ?? [])
                + CatalogValidation.website(request.website))
        return try await database.transaction { sql in
            var course = try await courses.course(id, on: sql).orMissing(id)
            if let name = request.name { course.name = name.trimmingBlanks }
            if let location = request.location { course.location = location }
            if let website = request.website { course.website = website }
            try await courses.update(course, on: sql)
            try await publish(course, on: sql)
            return course
        }
    }

    /// Rounds keep what they copied when they started, so a deleted course ends nobody's game.
    func deleteCourse(_ id: CourseID, by identity: Identity) async throws {
        try requireAdministrator(identity)
        try await database.transaction { sql in
            guard try await courses.course(id, on: sql) != nil else { throw CommonError.missing(id) }
            try await courses.delete(id, on: sql)
            try await outbox.append(
                CatalogEvent.courseDeleted, aggregateID: id.description, payload: CatalogEvent.CourseDeleted(courseId: id), on: sql)
        }
    }

    /// Removes a hole; the later holes move up a number, so numbering keeps no gaps.
    func removeHole(_ number: Int, from id: CourseID, by identity: Identity) async throws -> Course {
        try requireAdministrator(identity)
        return try await database.transaction { sql in
            let course = try await courses.course(id, on: sql).orMissing(id)
            guard (1...course.holeCount).contains(number) else {
                throw CommonError.invalid("number", "must be a hole of this course (1–\(course.holeCount))")
            }
            guard course.holeCount > 1 else { throw CommonError.invalid("number", "a course keeps at least one hole") }
            try await courses.removeHole(number, from: id, on: sql)
            let updated = try await courses.course(id, on: sql).orMissing(id)
            try await publish(updated, on: sql)
            return updated
        }
    }

    /// Replaces a hole, or adds the next one (`holeCount + 1`), so numbering never has gaps.
    func saveHole(_ number: Int, _ request: UpdateHoleRequest, in id: CourseID, by identity: Identity) async throws -> Course {
        try requireAdministrator(identity)
        let hole = Hole(number: number, par: request.par, tee: request.tee, basket: request.basket)
        // The number comes from the path, the rest from the body: all of them are top-level fields.
        try FieldRules.require(CatalogValidation.hole(hole, field: ""))
        return try await database.transaction { sql in
            let course = try await courses.course(id, on: sql).orMissing(id)
            guard number <= course.holeCount + 1 else {
                throw CommonError.invalid("number", "must be an existing hole (1–\(course.holeCount)) or the next one")
            }
            try await courses.save(hole, in: id, on: sql)
            let updated = try await courses.course(id, on: sql).orMissing(id)
            try await publish(updated, on: sql)
            return updated
        }
    }

    func createVenue(_ request: CreateVenueRequest, by identity: Identity) async throws -> Venue {
        try requireAdministrator(identity)
        try FieldRules.require(
            CatalogValidation.name(request.name) + FieldRules.location(request.location)
                + CatalogValidation.website(request.website)
                + (request.description.flatMap(CreateVenueRequest.description.problem).map { [.init(field: "description", message: $0)] }
                    ?? [])
                + (request.sports.isEmpty ? [.invalid("sports", "must name at least one sport")] : []))
        let venue = Venue(
            id: VenueID(), name: request.name.trimmingBlanks, location: request.location,
            sports: request.sports.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }, website: request.website,
            description: request.description, postcode: request.postcode?.uppercased())
        try await database.transaction { sql in
            try await venues.insert(venue, on: sql)
            try await outbox.append(
                CatalogEvent.venueChanged, aggregateID: venue.id.description, payload: CatalogEvent.VenueChanged(venue: venue), on: sql)
        }
        return venue
    }

    func venue(_ id: VenueID) async throws -> Venue {
        return try await database.read { sql in try await venues.venue(id, on: sql) }.orMissing(id)
    }

    func venues(_ page: PageRequest) async throws -> Page<Venue> {
        let after = try NameCursor(page)
        let rows = try await database.read { sql in try await venues.venues(after: after, limit: page.limit + 1, on: sql) }
        return page.page(rows) { NameCursor.after(name: $0.name, id: $0.id) }
    }

    /// 403 unless `identity` is an administrator: only they change courses and venues.
    func requireAdministrator(_ identity: Identity) throws {
        guard identity.isAdministrator else { throw CommonError.forbidden("Only administrators can change courses and venues.") }
        try identity.requireSecondFactorForStaffWork()
    }

    private func publish(_ course: Course, on sql: any SQLDatabase) async throws {
        try await outbox.append(
            CatalogEvent.courseChanged, aggregateID: course.id.description, payload: CatalogEvent.CourseChanged(course: course), on: sql)
    }
}
