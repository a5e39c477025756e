public import SQLKit

/// A `row_version` on a table's rows, raised by the database itself whenever the row changes or a row
/// of a table that belongs to it does (a game's roster, a course's holes). The database keeps it rather
/// than the code that writes, so no write path can forget it, and it moves in the same transaction as
/// the change. Conditional reads name what they send by these versions (`ETag`), which costs one
/// indexed read instead of building and hashing the body.
extension Migration {
    /// Adds `row_version` to `table` (keyed by `key`) and the triggers that raise it: on the table's
    /// own updates, and on inserts, updates and deletes of each of `children`, whose `column` holds the key.
    public static func rowVersions(
        version: Int, table: String, key: String = "id", children: [(table: String, column: String)] = []
    ) -> Migration {
        Migration(version: version, name: "row versions of \(table)") { kind in
            switch kind {
            case .postgres: postgresStatements(table: table, key: key, children: children)
            case .sqlite: sqliteStatements(table: table, key: key, children: children)
            }
        }
    }

    private static func postgresStatements(table: String, key: String, children: [(table: String, column: String)]) -> [String] {
        [
            "ALTER TABLE \(table) ADD COLUMN row_version BIGINT NOT NULL DEFAULT 0",
            """
            CREATE OR REPLACE FUNCTION huddle_raise_row_version() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN NEW.row_version := OLD.row_version + 1; RETURN NEW; END $$
            """,
            // The parent's table, key column and the child's column come as the trigger's arguments, so
            // one function serves every child table.
            """
            CREATE OR REPLACE FUNCTION huddle_raise_parent_version() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE raise text := format('UPDATE %I SET row_version = row_version + 1 WHERE %I = $1', TG_ARGV[0], TG_ARGV[1]);
            BEGIN
                IF TG_OP <> 'INSERT' THEN EXECUTE raise USING to_jsonb(OLD) ->> TG_ARGV[2]; END IF;
                IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (to_jsonb(NEW) ->> TG_ARGV[2]) IS DISTINCT FROM (to_jsonb(OLD) ->> TG_ARGV[2])) THEN
                    EXECUTE raise USING to_jsonb(NEW) ->> TG_ARGV[2];
                END IF;
                RETURN NULL;
            END $$
            """,
            "CREATE TRIGGER \(table)_row_version BEFORE UPDATE ON \(table) FOR EACH ROW EXECUTE FUNCTION huddle_raise_row_version()",
        ]
            + children.map { child in
                "CREATE TRIGGER \(child.table)_raises_\(table)_version AFTER INSERT OR UPDATE OR DELETE ON \(child.table) "
                    + "FOR EACH ROW EXECUTE FUNCTION huddle_raise_parent_version('\(table)', '\(key)', '\(child.column)')"
            }
    }

    private static func sqliteStatements(table: String, key: String, children: [(table: String, column: String)]) -> [String] {
        var statements = [
            "ALTER TABLE \(table) ADD COLUMN row_version INTEGER NOT NULL DEFAULT 0",
            // The inner update changes row_version, so the WHEN stops it from firing again.
            """
            CREATE TRIGGER \(table)_row_version AFTER UPDATE ON \(table) FOR EACH ROW WHEN NEW.row_version = OLD.row_version
            BEGIN UPDATE \(table) SET row_version = OLD.row_version + 1 WHERE \(key) = NEW.\(key); END
            """,
        ]
        for child in children {
            func raise(_ row: String) -> String {
                "UPDATE \(table) SET row_version = row_version + 1 WHERE \(key) = \(row).\(child.column);"
            }
            statements += [
                "CREATE TRIGGER \(child.table)_raises_\(table)_version_on_insert AFTER INSERT ON \(child.table) BEGIN \(raise("NEW")) END",
                "CREATE TRIGGER \(child.table)_raises_\(table)_version_on_delete AFTER DELETE ON \(child.table) BEGIN \(raise("OLD")) END",
                """
                CREATE TRIGGER \(child.table)_raises_\(table)_version_on_update AFTER UPDATE ON \(child.table)
                BEGIN \(raise("OLD")) UPDATE \(table) SET row_version = row_version + 1
                    WHERE \(key) = NEW.\(child.column) AND NEW.\(child.column) IS NOT OLD.\(child.column); END
                """,
            ]
        }
        return statements
    }
}

/// Reads the versions a table keeps: `row_version` (`Migration.rowVersions`), or a column of
/// its own that every change raises (chat's rooms keep `version`).
public struct RowVersions: Sendable {
    public let table: String
    public let key: String
    public let column: String

    public init(of table: String, key: String = "id", column: String = "row_version") {
        self.table = table
        self.key = key
        self.column = column
    }

    /// Each of `ids`' version; an id without a row is left out.
    public func versions(of ids: [String], on sql: any SQLDatabase) async throws -> [String: Int] {
        guard !ids.isEmpty else { return [:] }
        var versions: [String: Int] = [:]
        for row in try await sql.select().columns(key, column).from(table).where(SQLColumn(key), .in, SQLBind.group(ids)).all() {
            versions[try row.decode(column: key, as: String.self)] = try row.decode(column: column, as: Int.self)
        }
        return versions
    }

    /// `ids` with their versions, in order, as the parts of an entity tag (`Versioned`).
    public func tagParts(of ids: [String], on sql: any SQLDatabase) async throws -> [String] {
        let versions = try await versions(of: ids, on: sql)
        return ids.map { "\($0)/\(versions[$0] ?? -1)" }
    }
}
