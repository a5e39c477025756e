import Contracts
import Hummingbird
import ServiceHTTP

/// `/v1/notifications/devices...`: my push tokens.
struct DevicesController: Controller {
    let devices: Devices

    func register(on router: Router<HuddleRequestContext>) {
        router.on(NotifyAPI.devices) { request, context in try await devices.list(of: context.userID, page: try PageRequest(request)) }
        router.on(NotifyAPI.registerDevice) { body, _, context in try await devices.register(body, for: context.userID) }
        router.on(NotifyAPI.removeDevice) { _, context in
            try await devices.remove(try context.parameters.require("token"), of: context.userID)
            return NoContent()
        }
    }
}
