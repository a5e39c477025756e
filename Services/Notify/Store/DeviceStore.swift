import Contracts
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// Users' push tokens.
protocol DeviceStore: Sendable {
    /// Registers the token to `user`, taking it from whoever had it.
    func register(_ device: Device, for user: UserID, on sql: any SQLDatabase) async throws
    /// Removes the token if it is `user`'s; false when it is not.
    func remove(_ token: String, of user: UserID, on sql: any SQLDatabase) async throws -> Bool
    /// Removes the token whoever has it (the push service said it is no longer valid).
    func forget(_ token: String, on sql: any SQLDatabase) async throws
    func devices(of user: UserID, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<Device>
    func devices(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: [Device]]
}

struct SQLDeviceStore: DeviceStore {
    private static let columns = ["token", "user_id", "platform", "environment", "topic", "registered_at"]

    func register(_ device: Device, for user: UserID, on sql: any SQLDatabase) async throws {
        try await sql.insert(into: "devices").columns(Self.columns)
            .values(
                SQLBind(device.token), SQLBind(user.description), SQLBind(device.platform.rawValue),
                SQLBind(device.environment?.rawValue), SQLBind(device.topic), SQLBind(device.registeredAt)
            )
            .onConflict(with: ["token"]) { conflict in
                conflict.set(excludedValueOf: "user_id").set(excludedValueOf: "platform").set(excludedValueOf: "environment")
                    .set(excludedValueOf: "topic").set(excludedValueOf: "registered_at")
            }
            .run()
    }

    func remove(_ token: String, of user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        try await !sql.delete(from: "devices").where("token", .equal, SQLBind(token)).where("user_id", .equal, SQLBind(user.description))
            .returning("token").all().isEmpty
    }

    func forget(_ token: String, on sql: any SQLDatabase) async throws {
        try await sql.delete(from: "devices").where("token", .equal, SQLBind(token)).run()
    }

    func devices(of user: UserID, page: PageRequest, on sql: any SQLDatabase) async throws -> Page<Device> {
        var query = sql.select().columns(Self.columns).from("devices").where("user_id", .equal, SQLBind(user.description))
        if let cursor = try TimeCursor(page) {
            query = query.where(cursor.continuation(time: SQLColumn("registered_at"), id: SQLColumn("token"), descending: true))
        }
        let rows = try await query.orderBy("registered_at", .descending).orderBy("token", .descending).limit(page.limit + 1).all()
            .map(Self.decode)
        return page.page(rows) { TimeCursor(time: $0.registeredAt, id: $0.token).encoded }
    }

    func devices(of users: [UserID], on sql: any SQLDatabase) async throws -> [UserID: [Device]] {
        guard !users.isEmpty else { return [:] }
        let rows = try await sql.select().columns(Self.columns).from("devices")
            .where(SQLInList("user_id", users.map(\.description))).orderBy("registered_at").all()
        var devices: [UserID: [Device]] = [:]
        for row in rows { devices[try row.typedID("user_id"), default: []].append(try Self.decode(row)) }
        return devices
    }

    private static func decode(_ row: any SQLRow) throws -> Device {
        Device(
            platform: try row.enumValue("platform"),
            token: try row.decode(column: "token", as: String.self),
            environment: try row.decode(column: "environment", as: String?.self).map { raw in
                guard let environment = APNsEnvironment(rawValue: raw) else { throw CorruptRow(column: "environment", value: raw) }
                return environment
            },
            topic: try row.decode(column: "topic", as: String?.self),
            registeredAt: try row.decode(column: "registered_at", as: Date.self))
    }
}
