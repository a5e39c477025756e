public import Contracts
import Foundation
import NIOCore
public import ServiceLifecycle

/// One module's application in the runner's group: an error that stops it names the module, and a
/// port already taken names the address and the key that moves it.
struct ModuleService: Service, CustomStringConvertible {
    let module: ServiceModule
    let address: String
    let application: any Service

    var description: String { "\(module.rawValue)'s application" }

    func run() async throws {
        do {
            try await NamedListener.run(application, at: address, portKey: "\(module.rawValue).http.port")
        } catch is CancellationError {
            throw CancellationError()
        } catch let failure as NamedListener.AddressInUse {
            throw ModuleFailed(module: module, reason: failure.reason)
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

/// A server beside the modules (a providers' stand-in) that, like them, names the address it could
/// not take and the key that moves it: a second `huddle` used to say only `bind(…): Address already in
/// use (errno: 98)`, the stand-in's port being the first it tried.
public struct NamedListener: Service, CustomStringConvertible {
    let name: String
    let address: String
    let portKey: String
    let service: any Service

    public init(_ name: String, at address: String, portKey: String, _ service: any Service) {
        self.name = name
        self.address = address
        self.portKey = portKey
        self.service = service
    }

    public var description: String { name }

    public func run() async throws {
        do {
            try await Self.run(service, at: address, portKey: portKey)
        } catch let failure as AddressInUse {
            throw ListenerFailed(description: "\(name): \(failure.reason)")
        }
    }

    /// `service`, with a port already taken said in words.
    static func run(_ service: any Service, at address: String, portKey: String) async throws {
        do {
            try await service.run()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw AddressInUse(reason: "cannot listen on \(address), the address is in use (set \(portKey) to another port)")
        }
    }

    struct AddressInUse: Error { let reason: String }

    public struct ListenerFailed: Error, CustomStringConvertible {
        public let description: String
    }
}
