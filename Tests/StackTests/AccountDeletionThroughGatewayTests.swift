import Contracts
import Foundation
import HuddleKit
import ServiceKitTesting
import Testing

/// An app deletes its account through HuddleKit and the gateway, as App Review asks.
@Suite("Deleting an account through the gateway")
struct AccountDeletionThroughGatewayTests {
    @Test(
        "HuddleKit deletes the account with the password again: the session ends on every phone, sign-in is refused, the email is free",
        arguments: StackTests.stores)
    func deleteAccount(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let email = HuddleKitTests.email()
            let app = HuddleKitTests.client(gateway), tablet = HuddleKitTests.client(gateway)
            try await app.register(email: email, password: "kit password 1", name: "Kit Leaving")
            try await tablet.signIn(email: email, password: "kit password 1")
            do {
                try await app.deleteAccount(password: "not the password")
                Issue.record("deleted without the password")
            } catch let error as HuddleError {
                #expect(error.status == 401 && error.code == "REAUTHENTICATION_REQUIRED")
            }
            try await app.deleteAccount(password: "kit password 1")
            #expect(await app.currentUser == nil)
            // The tablet's session ended too (its refresh is refused), and nobody signs in as Kit again.
            let ended = try await poll {
                do {
                    _ = try await tablet.send(AuthAPI.me)
                    return false
                } catch { return true }
            } until: {
                $0
            }
            #expect(ended)
            await #expect(throws: HuddleError.self) { try await app.signIn(email: email, password: "kit password 1") }
            let again = try await HuddleKitTests.client(gateway).register(email: email, password: "kit password 2", name: "Kit Again")
            #expect(again.email == email)
        }
    }
}
