public import Contracts
import Foundation
import NIOCore
import ServiceLifecycle

/// One module's application in the runner's group: an error that stops it names the module, and a
/// port already taken names the address and the key that moves it.
struct ModuleService: Service, CustomStringConvertible {
    let module: ServiceModule
    let address: String
    let application: any Service

    var description: String { "\(module.rawValue)'s application" }

    func run() async throws {
        do {
            try await application.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw ModuleFailed(
                module: module,
                reason: "cannot listen on \(address), the address is in use (set \(module.rawValue).http.port to another port)")
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ModuleFailed(module: module, reason: "\(error)")
        }
    }
}

public struct ModuleFailed: Error, CustomStringConvertible {
    public let module: ServiceModule
    public let reason: String
    public var description: String { "\(module.rawValue): \(reason)" }
}
