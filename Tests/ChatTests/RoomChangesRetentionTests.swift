import Configuration
import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import ChatService
@testable import ServiceStore

/// A room's change log, which its live feed reads seconds behind, is kept a day (`roomchanges`).
@Suite("Room changes kept a day")
struct RoomChangesRetentionTests {
    @Test("a room's changes older than a day go, newer ones stay", arguments: TestStore.all)
    func pruned(store: TestStore) async throws {
        try await store.withDatabase(logger: .quiet("room-changes")) { database in
            try await database.migrate(ChatMigrations.all, logger: .quiet("room-changes"))
            let now = Date(), room = RoomID(), rooms = SQLRoomStore()
            try await database.transaction { sql in
                for (version, days) in [(1, 3.0), (2, 1.5), (3, 0.5)] {
                    let change = RoomChange(version: version, kind: .message, messageID: ChatMessageID(), userID: nil)
                    try await rooms.record(change, in: room, at: now.addingTimeInterval(-days * 86_400), on: sql)
                }
            }
            let retention = Retention(
                database: database, rules: [.roomChanges], reader: ConfigReader(provider: EnvironmentVariablesProvider.settings([:])),
                module: .chat, logger: .quiet("room-changes"))
            #expect(await retention.prune(at: now) == ["roomchanges": 2])
            let left = try await database.read { sql in try await rooms.changes(of: room, after: 0, limit: 10, on: sql) }
            #expect(left.map(\.version) == [3])
        }
    }
}
