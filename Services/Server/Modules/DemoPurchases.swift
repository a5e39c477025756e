import Contracts
import Foundation
import HuddleEffects
import Logging
import NIOHTTP1
import ServiceClients

/// Unlocks the demo players bought, the way an app buys them: the account token from purchases,
/// a transaction the stand-in App Store signs for it, submitted to purchases. With
/// `huddle --set purchases.gates=location,join,leagues`, Bruno sees every game's place and runs a
/// league but cannot join anything, Chloe's monthly membership unlocks everything, and Dmitri has
/// nothing: his request to join Kalev Spikers is refused.
enum DemoPurchases {
    static let owned: [(DemoData.Account, String)] = [
        (DemoData.bruno, "huddle.location"), (DemoData.bruno, "huddle.leagues"), (DemoData.chloe, "huddle.membership.monthly"),
    ]

    /// `call`, once more every 200 ms for up to 10 s while it is refused for an unlock: a purchase
    /// reaches catalog and games by an event, a moment after purchases credits it.
    static func afterUnlock<T>(_ call: () async throws -> T) async throws -> T {
        for _ in 0..<50 {
            do {
                return try await call()
            } catch let refused as UnexpectedResponse where refused.response.text.contains(ProblemCode.entitlementRequired.code) {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        return try await call()
    }

    /// Whether each of them holds their unlock at the end (or held it already).
    static func seed(purchasesURL: String, appStoreURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
        let purchases = APIClient(baseURL: purchasesURL), appStore = APIClient(baseURL: appStoreURL)
        var complete = true
        for (account, product) in owned {
            guard let token = sessions[account.email]?.accessToken else {
                complete = false
                continue
            }
            do {
                let held = try await purchases.value(PurchasesAPI.entitlements, token: token).items
                if held.contains(where: { $0.productId == product }) { continue }
                let accountToken = try await purchases.value(PurchasesAPI.accountToken, token: token).appAccountToken
                var fields = ["productId": product, "appAccountToken": accountToken.uuidString]
                if product == "huddle.membership.monthly" {
                    fields["expiresDate"] = ISO8601DateFormatter().string(from: Effects.system.now().addingTimeInterval(30 * 86_400))
                }
                struct Signed: Decodable { let signedTransaction: String }
                let signed = try await appStore.raw(.POST, "/test/appstore/transactions", json: fields)
                guard signed.status == 200 else { throw DemoFailure(description: "the stand-in App Store answered \(signed.status)") }
                _ = try await purchases.value(
                    PurchasesAPI.submitAppleTransaction,
                    body: SubmitTransaction(signedTransaction: try signed.decode(Signed.self).signedTransaction), token: token)
            } catch {
                logger.warning("demo purchase of \(product) for \(account.email) incomplete: \(error)")
                complete = false
            }
        }
        return complete
    }
}
