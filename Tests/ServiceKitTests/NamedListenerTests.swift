import Foundation
import Hummingbird
import Logging
import ServiceKitTesting
import Testing

@testable import ServiceFeatures
@testable import ServiceHTTP
@testable import ServiceKit
@testable import ServiceStore

/// A server that cannot take its port says which server, which address and which key moves it.
@Suite("Listeners whose port is taken")
struct NamedListenerTests {
    static func application(port: Int, onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        Application(
            router: Router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { await onListening($0.localAddress?.port ?? 0) }, logger: Logger(label: "taken"))
    }

    @Test("a stand-in whose port is taken names itself, the address and the key")
    func standIn() async throws {
        try await withServerOnPort0({ Self.application(port: 0, onListening: $0) }) { url in
            let address = String(url.dropFirst("http://".count))
            let port = try #require(Int(address.split(separator: ":").last ?? ""))
            let listener = NamedListener("the providers' stand-in", at: address, portKey: "standin.http.port", Self.application(port: port))
            await #expect {
                try await listener.run()
            } throws: { error in
                "\(error)"
                    == "the providers' stand-in: cannot listen on \(address), the address is in use (set standin.http.port to another port)"
            }
        }
    }
}
