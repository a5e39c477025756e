import Foundation
import Testing

@testable import MediaService

/// libvips through the media module's processor: what an upload really is, what is refused before a
/// pixel is decoded, and the three variants made of what is accepted.
@Suite("Image processing")
struct ImageProcessorTests {
    static let processor = try! ImageProcessor(maxPixels: 40_000_000)

    @Test("a phone's 12-megapixel JPEG, turned by its EXIF and placed by GPS, becomes three upright JPEGs without either")
    func phonePhoto() throws {
        let photo = try ImageProcessor.sampleJPEG(width: 4000, height: 3000, orientation: 6)
        let header = try Self.processor.header(of: photo)
        #expect(header == ImageHeader(format: .jpeg, width: 4000, height: 3000, orientation: 6, hasEXIF: true, hasGPS: true))
        let (_, variants) = try Self.processor.variants(of: photo, declared: .jpeg)
        #expect(variants.map(\.name) == ["small", "medium", "large"])
        // Orientation 6 is a quarter turn: the variants are portrait.
        #expect(variants.map { [$0.width, $0.height] } == [[96, 128], [384, 512], [1200, 1600]])
        for variant in variants {
            let read = try Self.processor.header(of: variant.data)
            #expect(read.format == .jpeg && read.width == variant.width && read.height == variant.height)
            #expect(!read.hasEXIF && !read.hasGPS && read.orientation == 1, "\(variant.name) kept metadata")
        }
    }

    @Test("a small picture is never made larger: its medium and large are its own size")
    func neverUpscaled() throws {
        let (_, variants) = try Self.processor.variants(of: try ImageProcessor.sampleJPEG(width: 300, height: 200), declared: .jpeg)
        #expect(variants.map { [$0.width, $0.height] } == [[128, 85], [300, 200], [300, 200]])
    }

    @Test("a PNG with transparency (a logo) is read as a PNG and flattened into JPEG variants")
    func transparentPNG() throws {
        let logo = PNG.make(width: 64, height: 48) { x, _ in x < 32 ? [200, 30, 30, 255] : [0, 0, 0, 0] }
        #expect(try Self.processor.header(of: logo).format == .png)
        let (_, variants) = try Self.processor.variants(of: logo, declared: .png)
        #expect(variants.allSatisfy { $0.width == 64 && $0.height == 48 })
        #expect(try variants.allSatisfy { try Self.processor.header(of: $0.data).format == .jpeg })
    }

    @Test("refused before decoding: a text file named .jpg, an image of another format than declared, a PNG claiming 10 gigapixels")
    func refusals() throws {
        #expect(throws: ImageRefusal.notAnImage) { try Self.processor.variants(of: Data("GIF89a? no, a text file".utf8), declared: .jpeg) }
        #expect(throws: ImageRefusal.notAnImage) { try Self.processor.header(of: Data()) }
        let jpeg = try ImageProcessor.sampleJPEG(width: 40, height: 30)
        #expect(throws: ImageRefusal.notDeclaredFormat(.jpeg)) { try Self.processor.variants(of: jpeg, declared: .png) }
        // A decompression bomb: a few hundred bytes whose header promises 100,000 × 100,000 pixels.
        let bomb = PNG.make(width: 100_000, height: 100_000, rows: 1) { _, _ in [0, 0, 0, 255] }
        #expect(bomb.count < 1 << 20)
        #expect(throws: ImageRefusal.tooManyPixels(10_000_000_000)) { try Self.processor.variants(of: bomb, declared: .png) }
    }
}

/// PNGs written byte by byte (RGBA, stored deflate blocks), so a test can make one that lies about its size.
enum PNG {
    /// `rows` of pixels written (all of them when nil): fewer than `height` make a PNG whose header
    /// promises more than it holds.
    static func make(width: Int, height: Int, rows: Int? = nil, pixel: (Int, Int) -> [UInt8]) -> Data {
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
