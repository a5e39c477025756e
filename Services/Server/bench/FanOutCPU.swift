import Foundation

/// The CPU a fan-out takes, kernel included, in the server's process and in this one (the devices),
/// from when it is made to when `line` is called: what limits a fan-out figure on a small machine,
/// where the devices share the cores with the server.
struct FanOutCPU {
    let server: ChildProcess
    /// The gateways between the server and the devices, when there are any (their CPU summed).
    let relays: [ChildProcess]
    private let start: (server: Double, devices: Double, relays: Double)

    init(server: ChildProcess, relays: [ChildProcess] = []) {
        self.server = server
        self.relays = relays
        self.start = (server.cpuSeconds(), ChildProcess.cpuSeconds(ofProcess: "self"), Self.cpuSeconds(of: relays))
    }

    private static func cpuSeconds(of processes: [ChildProcess]) -> Double { processes.map { $0.cpuSeconds() }.reduce(0, +) }

    /// "CPU a change: games' process 0.281 s (28.1 µs a delivery), devices' process 0.391 s (39.1 µs)",
    /// for `units` changes (or messages) each delivered to `devices` sockets, `serverDevices` of them
    /// on the measured server.
    func line(per unit: String, units: Int, server name: String, devices: Int, serverDevices: Int) -> String {
        let units = Double(max(1, units))
        let spent = (server: server.cpuSeconds() - start.server, devices: ChildProcess.cpuSeconds(ofProcess: "self") - start.devices)
        return "  CPU a \(unit): \(name) process "
            + String(
                format: "%.3f s (%.1f µs a delivery)", spent.server / units, spent.server / units / Double(max(1, serverDevices)) * 1e6)
            + String(
                format: ", devices' process %.3f s (%.1f µs)", spent.devices / units, spent.devices / units / Double(max(1, devices)) * 1e6)
            + relayPart(units: units, devices: devices)
    }

    /// ", the gateway's process 0.300 s (30.0 µs)", the gateways' CPU summed; empty without one.
    private func relayPart(units: Double, devices: Int) -> String {
        guard !relays.isEmpty else { return "" }
        let seconds = (Self.cpuSeconds(of: relays) - start.relays) / units
        let name = relays.count == 1 ? "the gateway's process" : "the \(relays.count) gateways' processes"
        return ", \(name) " + String(format: "%.3f s (%.1f µs)", seconds, seconds / Double(max(1, devices)) * 1e6)
    }
}
