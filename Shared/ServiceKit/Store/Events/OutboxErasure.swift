public import Contracts
public import Foundation
public import SQLKit
import ServerContracts

/// What a module's outbox still holds about a player whose account was deleted, erased with the rest
/// of what the module holds of them: the events parked for a subscriber that name them are deleted
/// (kept two weeks, and an operator's replay would bring their data back into a module that had
/// erased it), and the events every subscriber has received that name them are emptied (payload
/// `{}`; the rows stay until the daily pruning, so the stream's count and positions are unchanged).
/// Events not yet received stay whole: each subscriber applies them and then erases, in order. The deletion
/// itself (`auth.user.deleted`) names nothing but the id and is kept, parked or not: a subscriber
/// that refused it still has to erase.
///
/// An event names the player when its aggregate is the player or its payload holds their id: ids
/// are lowercase UUIDs on the wire (`TypedID`), so a text match finds every field that holds one.
public struct OutboxErasure: Sendable {
    let outbox: Outbox
    let subscribers: [String]

    public init(now: @escaping @Sendable () -> Date, subscribers: [ServiceModule]) {
        outbox = Outbox(now: now)
        self.subscribers = subscribers.map(\.rawValue)
    }

    public func forget(_ player: UserID, on sql: any SQLDatabase) async throws {
        let id = player.description
        let naming = SQLGroupExpression(
            SQLBinaryExpression(
                SQLBinaryExpression(SQLColumn("aggregate_id"), .equal, SQLBind(id)), .or,
                SQLBinaryExpression(SQLColumn("payload"), .like, SQLBind("%\(id)%"))))
        let kept = SQLBinaryExpression(SQLColumn("type"), .notEqual, SQLBind(AuthEvent.accountDeleted.name))
        try await sql.delete(from: "outbox_dead_letters").where(naming).where(kept).run()
        guard let everyone = try await outbox.receivedByEveryone(subscribers, on: sql) else { return }
        try await sql.update("outbox").set("payload", to: SQLBind("{}")).where(Outbox.order, .lessThanOrEqual, everyone.pair)
            .where(naming).where(kept).run()
    }
}
