import Foundation
import ServiceKitTesting
import Testing

@testable import MediaService

/// libvips through the media module's processor: what an upload really is, what is refused before a
/// pixel is decoded, and the three variants made of what is accepted.
@Suite("Image processing")
struct ImageProcessorTests {
    static func processor() throws -> ImageProcessor { try ImageProcessor(maxPixels: 40_000_000) }

    @Test("a phone's 12-megapixel JPEG, turned by its EXIF and placed by GPS, becomes three upright JPEGs without either")
    func phonePhoto() throws {
        let photo = try ImageProcessor.sampleJPEG(width: 4000, height: 3000, orientation: 6)
        let header = try Self.processor().header(of: photo)
        #expect(header == ImageHeader(format: .jpeg, width: 4000, height: 3000, orientation: 6, hasEXIF: true, hasGPS: true))
        let (_, variants) = try Self.processor().variants(of: photo, declared: .jpeg)
        #expect(variants.map(\.name) == ["small", "medium", "large"])
        // Orientation 6 is a quarter turn: the variants are portrait.
        #expect(variants.map { [$0.width, $0.height] } == [[96, 128], [384, 512], [1200, 1600]])
        for variant in variants {
            let read = try Self.processor().header(of: variant.data)
            #expect(read.format == .jpeg && read.width == variant.width && read.height == variant.height)
            #expect(!read.hasEXIF && !read.hasGPS && read.orientation == 1, "\(variant.name) kept metadata")
        }
    }

    @Test("a small picture is never made larger: its medium and large are its own size")
    func neverUpscaled() throws {
        let (_, variants) = try Self.processor().variants(of: try ImageProcessor.sampleJPEG(width: 300, height: 200), declared: .jpeg)
        #expect(variants.map { [$0.width, $0.height] } == [[128, 85], [300, 200], [300, 200]])
    }

    @Test("a PNG with transparency (a logo) is read as a PNG and flattened into JPEG variants")
    func transparentPNG() throws {
        let logo = PNG.make(width: 64, height: 48) { x, _ in x < 32 ? [200, 30, 30, 255] : [0, 0, 0, 0] }
        #expect(try Self.processor().header(of: logo).format == .png)
        let (_, variants) = try Self.processor().variants(of: logo, declared: .png)
        #expect(variants.allSatisfy { $0.width == 64 && $0.height == 48 })
        #expect(try variants.allSatisfy { try Self.processor().header(of: $0.data).format == .jpeg })
    }

    @Test("refused before decoding: a text file named .jpg, an image of another format than declared, a PNG claiming 10 gigapixels")
    func refusals() throws {
        #expect(throws: ImageRefusal.notAnImage) {
            try Self.processor().variants(of: Data("GIF89a? no, a text file".utf8), declared: .jpeg)
        }
        #expect(throws: ImageRefusal.notAnImage) { try Self.processor().header(of: Data()) }
        let jpeg = try ImageProcessor.sampleJPEG(width: 40, height: 30)
        #expect(throws: ImageRefusal.notDeclaredFormat(.jpeg)) { try Self.processor().variants(of: jpeg, declared: .png) }
        // A decompression bomb: a few hundred bytes whose header promises 100,000 × 100,000 pixels.
        let bomb = PNG.make(width: 100_000, height: 100_000, rows: 1) { _, _ in [0, 0, 0, 255] }
        #expect(bomb.count < 1 << 20)
        #expect(throws: ImageRefusal.tooManyPixels(10_000_000_000)) { try Self.processor().variants(of: bomb, declared: .png) }
    }
}
