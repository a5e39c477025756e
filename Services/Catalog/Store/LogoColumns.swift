import Contracts
import SQLKit
import ServerContracts
import ServiceStore

/// A team's or league's logo as its table keeps it: the picture (`AttachedPicture` as JSON) and, in
/// its own indexed column, who uploaded it, so a deleted account's logos are found without a scan.
struct LogoColumns {
    let table: String

    /// Sets (or removes) the logo of the row `id`; answers the upload of the logo it replaced.
    func set(_ logo: AttachedPicture?, of id: String, on sql: any SQLDatabase) async throws -> MediaID? {
        let before = try await sql.select().column("logo").from(table).where("id", .equal, SQLBind(id)).first()?
            .json("logo", as: AttachedPicture.self)
        try await sql.update(table).set("logo", to: SQLBind(try logo.map(StoredJSON.text)))
            .set("logo_owner_id", to: SQLBind(logo?.ownerId.description)).where("id", .equal, SQLBind(id)).run()
        return before?.mediaId == logo?.mediaId ? nil : before?.mediaId
    }

    /// Takes off every logo `owner` uploaded.
    func remove(uploadedBy owner: UserID, on sql: any SQLDatabase) async throws {
        try await sql.update(table).set("logo", to: SQLLiteral.null).set("logo_owner_id", to: SQLLiteral.null)
            .where("logo_owner_id", .equal, SQLBind(owner.description)).run()
    }
}
