import Foundation

/// What the kernel holds of a TCP connection on this machine, read from Linux's `/proc/net/tcp`:
/// for tests of socket options whose only effect is there (keepalive runs no code of ours).
public enum KernelTCP {
    public enum Timer: Equatable, Sendable {
        case none
        case retransmit
        /// Keepalive's next probe is due in this many seconds.
        case keepalive(seconds: Double)
        case other(Int)
    }

    /// Whether this machine lists its connections where `timer` reads them (Linux).
    public static var isReadable: Bool { FileManager.default.isReadableFile(atPath: "/proc/net/tcp") }

    /// The timer the kernel runs for the IPv4 connection from local port `local` to remote port
    /// `remote`; nil when there is no such connection, or no `/proc/net/tcp` to read (not Linux).
    public static func timer(local: Int, remote: Int) -> Timer? {
        guard let table = contents(of: "/proc/net/tcp") else { return nil }
        // Rows: `sl local_address rem_address st tx_queue:rx_queue tr:tm->when ...`, addresses as
        // hex `IP:PORT`, `tm->when` in clock ticks.
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        for row in table.split(separator: "\n").dropFirst() {
            let fields = row.split(separator: " ")
            guard fields.count > 5, port(fields[1]) == local, port(fields[2]) == remote else { continue }
            let timer = fields[5].split(separator: ":")
            guard timer.count == 2, let kind = Int(timer[0], radix: 16), let when = Int(timer[1], radix: 16) else { return nil }
            switch kind {
            case 0: return Timer.none
            case 1: return .retransmit
            case 2: return .keepalive(seconds: Double(when) / ticksPerSecond)
            default: return .other(kind)
            }
        }
        return nil
    }

    /// A file of /proc read to its end: its size says 0, and a read of that many bytes stops short.
    private static func contents(of path: String) -> String? {
        let file = open(path, O_RDONLY)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(file, &chunk, chunk.count)
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += chunk[..<count]
        }
    }

    private static func port(_ address: Substring) -> Int? {
        address.split(separator: ":").last.flatMap { Int($0, radix: 16) }
    }
}
