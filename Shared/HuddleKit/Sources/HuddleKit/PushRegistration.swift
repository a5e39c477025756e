public import Contracts
public import Foundation

extension HuddleClient {
    /// Registers this iPhone for push with the token `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`
    /// gave (its bytes, sent as hex). A development build's token belongs to APNs's sandbox; `topic`
    /// is the app's bundle id (the server's default when nil). Call it on every launch: a token the
    /// server has is refreshed, and one another user of this phone had moves to the signed-in user.
    @discardableResult
    public func registerForPush(apnsToken: Data, environment: APNsEnvironment, topic: String? = nil) async throws -> Device {
        let hex = apnsToken.map { String(format: "%02x", $0) }.joined()
        return try await send(
            NotifyAPI.registerDevice, body: RegisterDevice(platform: .apns, token: hex, environment: environment, topic: topic))
    }

    /// Registers an Android phone's FCM registration token for push.
    @discardableResult
    public func registerForPush(fcmToken: String) async throws -> Device {
        try await send(NotifyAPI.registerDevice, body: RegisterDevice(platform: .fcm, token: fcmToken))
    }
}
