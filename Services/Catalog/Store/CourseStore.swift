import Contracts
import Foundation
import SQLKit
import ServiceStore

/// Disc golf courses with their holes. Par and hole count are never stored: they come from the holes.
protocol CourseStore: Sendable {
    func insert(_ course: Course, on sql: any SQLDatabase) async throws
    func course(_ id: CourseID, on sql: any SQLDatabase) async throws -> Course?
    /// Courses by name; with `text`, those whose name holds it in any case.
    func courses(matching text: String?, after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Course]
    /// Replaces or adds one hole.
    func save(_ hole: Hole, in course: CourseID, on sql: any SQLDatabase) async throws
    /// Saves name, place and website.
    func update(_ course: Course, on sql: any SQLDatabase) async throws
    /// Removes hole `number` and moves the holes after it up one number.
    func removeHole(_ number: Int, from course: CourseID, on sql: any SQLDatabase) async throws
    func delete(_ course: CourseID, on sql: any SQLDatabase) async throws
}

struct SQLCourseStore: CourseStore {
    /// The module's clock, which stamps the rows this store writes.
    let now: @Sendable () -> Date

    func insert(_ course: Course, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "courses").columns("id", "name", "name_key", "lat", "lng", "address", "website", "created_at")
            .values(
                SQLBind(course.id.description), SQLBind(course.name), SQLBind(NameCursor.key(course.name)),
                SQLBind(course.location.lat), SQLBind(course.location.lng), SQLBind(course.location.address),
                SQLBind(course.website), SQLBind(now())
            ).run()
        for hole in course.holes { try await save(hole, in: course.id, on: sql) }
    }

    func course(_ id: CourseID, on sql: any SQLDatabase) async throws -> Course? {
        try await withHoles(select(on: sql).where("id", .equal, SQLBind(id.description)).all(), on: sql).first
    }

    func courses(matching text: String?, after: NameCursor?, limit: Int, on sql: any SQLDatabase) async throws -> [Course] {
        var query = select(on: sql)
        if let text, !text.isEmpty {
            // A plain substring test, as teams' names are searched: `%` and `_` mean themselves.
            let position = sql.dialect.name == "postgresql" ? "strpos" : "instr"
            query = query.where(
                SQLFunction(position, args: SQLColumn("name_key"), SQLBind(NameCursor.key(text))), .greaterThan, SQLLiteral.numeric("0"))
        }
        if let after { query = query.where(after.condition(table: "courses")) }
        return try await withHoles(query.orderBy("name_key").orderBy("id").limit(limit).all(), on: sql)
    }

    func save(_ hole: Hole, in course: CourseID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "holes")
            .columns("course_id", "number", "par", "tee_lat", "tee_lng", "basket_lat", "basket_lng")
            .values(
                SQLBind(course.description), SQLBind(hole.number), SQLBind(hole.par), SQLBind(hole.tee?.lat),
                SQLBind(hole.tee?.lng), SQLBind(hole.basket?.lat), SQLBind(hole.basket?.lng)
            )
            .onConflict(with: ["course_id", "number"]) { update in
                update.set(excludedValueOf: "par").set(excludedValueOf: "tee_lat").set(excludedValueOf: "tee_lng")
                    .set(excludedValueOf: "basket_lat").set(excludedValueOf: "basket_lng")
            }
            .run()
    }

    func update(_ course: Course, on sql: any SQLDatabase) async throws {
        try await sql.update("courses").set("name", to: SQLBind(course.name)).set("name_key", to: SQLBind(NameCursor.key(course.name)))
            .set("lat", to: SQLBind(course.location.lat)).set("lng", to: SQLBind(course.location.lng))
            .set("address", to: SQLBind(course.location.address)).set("website", to: SQLBind(course.website))
            .where("id", .equal, SQLBind(course.id.description)).run()
    }

    func removeHole(_ number: Int, from course: CourseID, on sql: any SQLDatabase) async throws {
        let id = SQLBind(course.description)
        try await sql.delete(from: "holes").where("course_id", .equal, id).where("number", .equal, SQLBind(number)).run()
        // Through negative numbers: a key checked row by row would meet the next hole's number on the way.
        try await sql.raw("UPDATE holes SET number = 1 - number WHERE course_id = \(bind: course.description) AND number > \(bind: number)")
            .run()
        try await sql.raw("UPDATE holes SET number = -number WHERE course_id = \(bind: course.description) AND number < 0").run()
    }

    func delete(_ course: CourseID, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "holes").where("course_id", .equal, SQLBind(course.description)).run()
        try await sql.delete(from: "courses").where("id", .equal, SQLBind(course.description)).run()
    }

    private func select(on sql: any SQLDatabase) -> SQLSelectBuilder {
        sql.select().columns("id", "name", "lat", "lng", "address", "website").from("courses")
    }

    private func withHoles(_ rows: [any SQLRow], on sql: any SQLDatabase) async throws -> [Course] {
        guard !rows.isEmpty else { return [] }
        let ids = try rows.map { try $0.decode(column: "id", as: String.self) }
        let holes = try await sql.select().columns("course_id", "number", "par", "tee_lat", "tee_lng", "basket_lat", "basket_lng")
            .from("holes").where("course_id", .in, SQLBind.group(ids)).orderBy("number").all()
            .reduce(into: [String: [Hole]]()) { result, row in
                func point(_ prefix: String) throws -> Coordinates? {
                    guard let lat = try row.decode(column: prefix + "_lat", as: Double?.self),
                        let lng = try row.decode(column: prefix + "_lng", as: Double?.self)
                    else { return nil }
                    return Coordinates(lat: lat, lng: lng)
                }
                let hole = Hole(
                    number: try row.decode(column: "number", as: Int.self), par: try row.decode(column: "par", as: Int.self),
                    tee: try point("tee"), basket: try point("basket"))
                result[try row.decode(column: "course_id", as: String.self), default: []].append(hole)
            }
        return try rows.map { row in
            let id = try row.decode(column: "id", as: String.self)
            return Course(
                id: try row.typedID("id"), name: try row.decode(column: "name", as: String.self),
                location: Location(
                    lat: try row.decode(column: "lat", as: Double.self), lng: try row.decode(column: "lng", as: Double.self),
                    address: try row.decode(column: "address", as: String?.self)),
                website: try row.decode(column: "website", as: String?.self), holes: holes[id] ?? [])
        }
    }
}
