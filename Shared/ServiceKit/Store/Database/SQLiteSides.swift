import SQLiteNIO

/// A SQLite file's two connections: one that writes, a transaction at a time, and one that reads.
///
/// In WAL mode a reader sees the last commit without waiting for the writer and the writer does not
/// wait for it, and each runs on a thread of its own: a page of a list, or chat's list of a
/// 1,000-member room's members to push, no longer holds a message's send behind it on the one
/// connection. The reader is `query_only`, so a write sent to it by mistake fails rather than
/// slipping past the writer's lock. A database in memory is one connection's alone; its sides are
/// the same connection.
struct SQLiteSides: Sendable {
    struct Side: Sendable {
        let connection: SQLiteConnection
        /// One statement or transaction at a time on the connection.
        let lock: AsyncLock
    }

    let writer: Side
    let reader: Side

    /// Each connection once.
    var connections: [SQLiteConnection] {
        writer.connection === reader.connection ? [writer.connection] : [writer.connection, reader.connection]
    }
}
