import AsyncHTTPClient
import Contracts
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceKit

/// Demo accounts created through auth's public API, so they go through the same rules as anyone's.
enum DemoData {
    struct Account {
        let name: String
        let email: String
        let password: String
    }

    static let administrator = Account(name: "Ada Admin", email: "ada@huddle.dev", password: "huddle-demo-admin")
    static let players = [
        Account(name: "Bruno Player", email: "bruno@huddle.dev", password: "huddle-demo-player"),
        Account(name: "Chloe Captain", email: "chloe@huddle.dev", password: "huddle-demo-player"),
        Account(name: "Dmitri Disc", email: "dmitri@huddle.dev", password: "huddle-demo-player"),
    ]

    static func seed(authURL: String, logger: Logger) async {
        // Created now, or on an earlier start: either way the credentials work, so show them.
        var available: [Account] = []
        for account in [administrator] + players {
            var request = HTTPClientRequest(url: authURL + "/v1/auth/register")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            let body = RegisterRequest(email: account.email, password: account.password, name: account.name)
            guard let data = try? HuddleJSON.encoder.encode(body) else { continue }
            request.body = .bytes(ByteBuffer(bytes: data))
            do {
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                if response.status == .created || response.status == .conflict { available.append(account) }
            } catch {
                logger.warning("could not create demo user \(account.email): \(error)")
            }
        }
        guard !available.isEmpty else { return }
        print("Demo accounts:")
        for account in available {
            let role = account.email == administrator.email ? " (administrator)" : ""
            print("  \(account.email)  password: \(account.password)\(role)")
        }
        fflush(nil)
    }
}
