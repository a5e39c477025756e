import Foundation
import HTTPTypes

/// The access token of a live socket from a device that cannot set `Authorization` on a WebSocket
/// (a browser's `WebSocket`, most command-line clients): it offers two subprotocols, `huddle` and
/// `huddle.bearer.<access token>`, and the gateway answers `Sec-WebSocket-Protocol: huddle` and
/// passes the token on to the module as `Authorization: Bearer`. (Kubernetes' API server takes a
/// token the same way, for the same reason.)
enum SocketToken {
    static let protocolName = "huddle"
    static let tokenPrefix = "huddle.bearer."

    /// What the device offered: the token, and whether it offered `huddle` itself (which the answer
    /// must then name: a browser fails a socket whose answer names none of the protocols it offered).
    static func offered(in fields: HTTPFields) -> (token: String?, protocolName: Bool) {
        let offers = fields[values: .secWebSocketProtocol].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        let token = offers.first { $0.hasPrefix(tokenPrefix) }.map { String($0.dropFirst(tokenPrefix.count)) }
        return (token.flatMap { $0.isEmpty ? nil : $0 }, offers.contains(protocolName))
    }
}
