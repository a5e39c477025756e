import Contracts
import Foundation
import Logging
import NIOHTTP1
import ServiceClients

/// Demo accounts created through auth's public API, so they go through the same rules as anyone's.
enum DemoData {
    struct Account {
        let name: String
        let email: String
        let password: String
        /// The language the account reads Huddle in, set on its profile; English when nil.
        var locale: String? = nil
    }

    static let administrator = Account(name: "Ada Admin", email: "ada@huddle.dev", password: "huddle-demo-admin")
    static let bruno = Account(name: "Bruno Player", email: "bruno@huddle.dev", password: "huddle-demo-player")
    static let chloe = Account(name: "Chloe Captain", email: "chloe@huddle.dev", password: "huddle-demo-player")
    /// Plays disc golf in Tartu, and reads Huddle in Estonian.
    static let dmitri = Account(name: "Dmitri Disc", email: "dmitri@huddle.dev", password: "huddle-demo-player", locale: "et")
    static let players = [bruno, chloe, dmitri]

    /// Creates the demo accounts (or signs in to those an earlier start created), prints their
    /// credentials, and returns their sessions by email.
    @discardableResult
    static func seed(authURL: String, logger: Logger) async -> [String: Session] {
        let auth = APIClient(baseURL: authURL)
        var sessions: [String: Session] = [:]
        for account in [administrator] + players {
            do {
                let body = RegisterRequest(email: account.email, password: account.password, name: account.name)
                let registered = try await auth.call(AuthAPI.register, body: body)
                if registered.status == 201 {
                    sessions[account.email] = try registered.decode(Session.self)
                } else if registered.status == 409 {
                    sessions[account.email] = try await auth.value(
                        AuthAPI.login, body: LoginRequest(email: account.email, password: account.password))
                }
                if let locale = account.locale, let session = sessions[account.email] {
                    _ = try await auth.value(AuthAPI.updateMe, body: UpdateProfileRequest(locale: locale), token: session.accessToken)
                }
            } catch {
                logger.warning("could not prepare demo user \(account.email): \(error)")
            }
        }
        guard !sessions.isEmpty else { return sessions }
        print("Demo accounts:")
        for account in [administrator] + players where sessions[account.email] != nil {
            let role = account.email == administrator.email ? " (administrator)" : ""
            print("  \(account.email)  password: \(account.password)\(role)")
        }
        fflush(nil)
        return sessions
    }
}
