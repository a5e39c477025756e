import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications/devices...`: my push tokens.
struct DevicesController: Controller {
    let devices: Devices

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.devices, use: listDevices)
        router.on(NotifyAPI.registerDevice, use: registerDevice)
        router.on(NotifyAPI.removeDevice, use: removeDevice)
    }

    /// `GET /v1/notifications/devices`
    @Sendable func listDevices(_ request: Request, _ context: AuthenticatedContext) async throws -> Page<Device> {
        try await devices.list(of: context.userID, page: try PageRequest(request))
    }

    /// `POST /v1/notifications/devices`
    @Sendable func registerDevice(_ body: RegisterDevice, _ request: Request, _ context: AuthenticatedContext) async throws -> Device {
        try await devices.register(body, for: context.userID)
    }

    /// `DELETE /v1/notifications/devices/{token}`
    @Sendable func removeDevice(_ request: Request, _ context: AuthenticatedContext) async throws -> NoContent {
        try await devices.remove(try context.parameters.require("token"), of: context.userID)
        return NoContent()
    }
}
