public import Foundation
import VipsShim

/// What an upload really is, read from its first bytes by libvips' loaders, whatever its name or
/// declared type says.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"
    case heic = "image/heic"
}

/// An image's header: its format and size as stored, read without decoding a pixel.
public struct ImageHeader: Sendable, Equatable {
    public var format: ImageFormat
    public var width: Int
    public var height: Int
    /// EXIF orientation (1–8): 5 to 8 are turned a quarter, so their variants swap width and height.
    public var orientation: Int
    public var hasEXIF: Bool
    public var hasGPS: Bool
    public var pixels: Int { width * height }
}

/// One size of a processed image: a JPEG, upright, without metadata.
public struct ImageVariant: Sendable, Equatable {
    public var name: String
    public var data: Data
    public var width: Int
    public var height: Int
}

/// Why an upload cannot be made into variants.
public enum ImageRefusal: Error, Equatable {
    /// No loader Huddle accepts knows the bytes (a text file named `.jpg`, a PDF, an SVG).
    case notAnImage
    /// An image of another format than the one declared.
    case notDeclaredFormat(ImageFormat)
    /// More pixels than `maxPixels`: refused before any is decoded (a decompression bomb).
    case tooManyPixels(Int)
    /// libvips could not decode it (truncated, corrupt).
    case unreadable(String)
}

/// libvips (the engine imgproxy and sharp use): reads the header to refuse before decoding, then
/// makes each variant with shrink-on-load, so a 12-megapixel JPEG is never held whole in memory.
public struct ImageProcessor: Sendable {
    /// The variants made of every upload: longest side at most this, never upscaled.
    public static let sizes: [(name: String, pixels: Int)] = [("small", 128), ("medium", 512), ("large", 1600)]
    public static let quality = 82

    public let maxPixels: Int

    /// Starts libvips for the process on first use. One libvips thread works on an image: an
    /// instance processes several uploads at once rather than one upload on several cores.
    public init(maxPixels: Int) throws {
        self.maxPixels = maxPixels
        guard Self.started else { throw ImageRefusal.unreadable("libvips did not start: \(Self.takeError())") }
    }

    private static let started: Bool = huddle_vips_start(1) == 0

    /// The bytes' real format and size; refused when no accepted loader knows them.
    public func header(of data: Data) throws -> ImageHeader {
        var raw = huddle_vips_header()
        let read = data.withUnsafeBytes { huddle_vips_read_header($0.baseAddress, $0.count, &raw) }
        let loader = withUnsafeBytes(of: raw.loader) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let compression = withUnsafeBytes(of: raw.compression) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        _ = Self.takeError()
        guard read == 0, let format = Self.format(loader: loader, compression: compression) else { throw ImageRefusal.notAnImage }
        return ImageHeader(
            format: format, width: Int(raw.width), height: Int(raw.height), orientation: Int(raw.orientation), hasEXIF: raw.has_exif != 0,
            hasGPS: raw.has_gps != 0)
    }

    /// Checks the bytes are an image of `declared` within the pixel limit, then makes every size.
    /// Blocks for as long as libvips works: call it off the event loops.
    public func variants(of data: Data, declared: ImageFormat) throws -> (ImageHeader, [ImageVariant]) {
        let header = try header(of: data)
        guard header.format == declared else { throw ImageRefusal.notDeclaredFormat(header.format) }
        guard header.pixels <= maxPixels else { throw ImageRefusal.tooManyPixels(header.pixels) }
        // The large one from the upload (shrunk on load), the smaller ones from it: decoding a
        // 1600-pixel JPEG costs a fraction of decoding the original again.
        var made: [ImageVariant] = []
        var source = data
        for (name, size) in Self.sizes.reversed() {
            let variant = try Self.variant(of: source, size: size, name: name)
            made.insert(variant, at: 0)
            source = variant.data
        }
        return (header, made)
    }

    private static func variant(of data: Data, size: Int, name: String) throws -> ImageVariant {
        var out: UnsafeMutableRawPointer?
        var length = 0
        var width: Int32 = 0, height: Int32 = 0
        let made = data.withUnsafeBytes {
            huddle_vips_variant($0.baseAddress, $0.count, Int32(size), Int32(quality), &out, &length, &width, &height)
        }
        guard made == 0, let out else { throw ImageRefusal.unreadable(takeError()) }
        defer { huddle_vips_free(out) }
        return ImageVariant(name: name, data: Data(bytes: out, count: length), width: Int(width), height: Int(height))
    }

    static func format(loader: String, compression: String) -> ImageFormat? {
        switch loader {
        case "VipsForeignLoadJpegBuffer": .jpeg
        case "VipsForeignLoadPngBuffer": .png
        case "VipsForeignLoadWebpBuffer": .webp
        case "VipsForeignLoadHeifBuffer" where compression == "hevc": .heic
        default: nil
        }
    }

    static func takeError() -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        huddle_vips_take_error(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A phone-like JPEG of `width` × `height` with an EXIF orientation and GPS position (tests, the benchmark).
    /// A square JPEG for the demo: a figure of one colour (RGB, 0–255) on another, a head and
    /// shoulders for a profile picture or rings for a logo.
    public static func emblemJPEG(size: Int, logo: Bool, background: [Double], figure: [Double]) throws -> Data {
        guard started else { throw ImageRefusal.unreadable("libvips did not start") }
        var out: UnsafeMutableRawPointer?
        var length = 0
        guard huddle_vips_emblem_jpeg(Int32(size), logo ? 1 : 0, background, figure, &out, &length) == 0, let out else {
            throw ImageRefusal.unreadable(takeError())
        }
        defer { huddle_vips_free(out) }
        return Data(bytes: out, count: length)
    }

    public static func sampleJPEG(width: Int, height: Int, orientation: Int = 1) throws -> Data {
        guard started else { throw ImageRefusal.unreadable("libvips did not start") }
        var out: UnsafeMutableRawPointer?
        var length = 0
        guard huddle_vips_sample_jpeg(Int32(width), Int32(height), Int32(orientation), &out, &length) == 0, let out else {
            throw ImageRefusal.unreadable(takeError())
        }
        defer { huddle_vips_free(out) }
        return Data(bytes: out, count: length)
    }
}
