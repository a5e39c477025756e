public import Foundation

/// PNGs written byte by byte (RGBA, stored deflate blocks), so a test can make one that lies about its size.
public enum PNG {
    /// `rows` of pixels written (all of them when nil): fewer than `height` make a PNG whose header
    /// promises more than it holds.
    public static func make(width: Int, height: Int, rows: Int? = nil, pixel: (Int, Int) -> [UInt8]) -> Data {
        var raw = [UInt8]()
        for y in 0..<(rows ?? height) {
            raw.append(0)
            for x in 0..<min(width, 4096) { raw += pixel(x, y) }
        }
        var header = [UInt8]()
        header += be32(width) + be32(height) + [8, 6, 0, 0, 0]
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", header) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
        return Data(png)
    }

    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let last: UInt8 = offset + length == data.count ? 1 : 0
            out += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
            out += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
