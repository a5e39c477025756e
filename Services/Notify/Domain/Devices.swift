import Contracts
import Foundation
import ServiceHTTP
import ServiceStore

/// Registering and removing push tokens.
struct Devices: Sendable {
    let database: Database
    let store: any DeviceStore
    let pushes: any PushJobStore
    /// The app's bundle id, for an APNs token registered without a topic.
    let defaultTopic: String
    let now: @Sendable () -> Date

    func register(_ request: RegisterDevice, for user: UserID) async throws -> Device {
        let device = try Self.validated(request, defaultTopic: defaultTopic, at: now())
        try await database.transaction { sql in try await store.register(device, for: user, on: sql) }
        return device
    }

    func remove(_ token: String, of user: UserID) async throws {
        try await database.transaction { sql in
            guard try await store.remove(token, of: user, on: sql) else {
                throw NotifyError.noSuchDevice
            }
            try await pushes.dropPending(token: token, reason: "device removed", at: now(), on: sql)
        }
    }

    func list(of user: UserID, page: PageRequest) async throws -> Page<Device> {
        try await database.read { sql in try await store.devices(of: user, page: page, on: sql) }
    }

    /// An APNs token is hex (64 digits today); environment and topic are APNs's alone.
    static func validated(_ request: RegisterDevice, defaultTopic: String, at now: Date) throws -> Device {
        switch request.platform {
        case .apns:
            guard request.token.count.isMultiple(of: 2), (64...200).contains(request.token.count), request.token.allSatisfy(\.isHexDigit)
            else { throw NotifyError.notAPNsToken }
            return Device(
                platform: .apns, token: request.token.lowercased(), environment: request.environment ?? .production,
                topic: request.topic ?? defaultTopic, registeredAt: now)
        case .fcm:
            guard NotifyLimits.fcmTokenLength.contains(request.token.count),
                request.token.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_:.-".contains($0)) })
            else { throw NotifyError.notFCMToken }
            if request.environment != nil { throw NotifyError.apnsOnly(field: "environment") }
            if request.topic != nil { throw NotifyError.apnsOnly(field: "topic") }
            return Device(platform: .fcm, token: request.token, environment: nil, topic: nil, registeredAt: now)
        }
    }
}
