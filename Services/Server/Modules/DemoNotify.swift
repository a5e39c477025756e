import Contracts
import Foundation
import Logging
import NIOHTTP1
import ServiceClients

/// The demo players' phones, registered through notify's API before the rest of the demo is
/// seeded, so what the demo does notifies them as it would anyone: Chloe asking to join Bruno's
/// team and game, the round Dmitri adds him to, the Kalev Spikers' new game (with the token to answer it
/// from the lock screen) and Chloe's message naming him in their room reach Bruno's iPhone; the Kalev
/// Spikers' new game reaches Dmitri's Android phone, in Estonian, the language he reads Huddle in. The
/// stand-in lists each phone's pushes (README).
enum DemoNotify {
    /// Fixed tokens, so the README can name them; registering one again changes nothing.
    static let brunoIPhone = String(repeating: "b0", count: 32)
    static let dmitriAndroid = "demo-dmitri-android:APA91bHuddleDemo"

    static func seed(notifyURL: String, sessions: [String: Session], logger: Logger) async -> Bool {
        let notify = APIClient(baseURL: notifyURL)
        let phones = [
            (DemoData.bruno, RegisterDevice(platform: .apns, token: brunoIPhone, environment: .sandbox)),
            (DemoData.dmitri, RegisterDevice(platform: .fcm, token: dmitriAndroid)),
        ]
        do {
            for (account, phone) in phones {
                guard let session = sessions[account.email] else { return false }
                _ = try await notify.value(NotifyAPI.registerDevice, body: phone, token: session.accessToken)
            }
            return true
        } catch {
            logger.warning("demo phones not registered: \(error)")
            return false
        }
    }
}
