import ArgumentParser
import Foundation
import MediaService

/// `huddle-bench media`: what a phone's photo costs the media module. A 12-megapixel JPEG as a phone
/// writes one (EXIF orientation, GPS) is made once; then, round after round, it becomes its three
/// variants on one libvips thread, timed, with the process's peak memory measured from a reset
/// (`/proc/self/clear_refs`) so that making the sample does not count.
struct MediaBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media", abstract: "A 12-megapixel photo made into its three variants: time and peak memory.")

    @Option(help: "The photo's width.") var width = 4000
    @Option(help: "The photo's height.") var height = 3000
    @Option(help: "Rounds.") var rounds = 5

    func run() async throws {
        let processor = try ImageProcessor(maxPixels: 50_000_000)
        let photo = try ImageProcessor.sampleJPEG(width: width, height: height, orientation: 6)
        print("media: a \(width) × \(height) JPEG of \(photo.count / 1024) KiB into 128, 512 and 1600 px variants, one thread")
        var seconds: [Double] = [], peaks: [Double] = []
        for round in 1...rounds {
            let baseline = Self.resetPeak()
            let start = ContinuousClock.now
            let (_, variants) = try processor.variants(of: photo, declared: .jpeg)
            let elapsed = ContinuousClock.now - start
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let peak = Double(Self.peakKiB() ?? 0) / 1024, resident = Double(baseline ?? 0) / 1024
            seconds.append(time)
            peaks.append(peak)
            print(
                String(
                    format: "  round %d: %.3f s; peak %.0f MiB resident (%.0f MiB before); variants %@", round, time, peak, resident,
                    variants.map { "\($0.width)×\($0.height) \($0.data.count) bytes" }.joined(separator: ", ")))
        }
        print("time per photo \(Spread(seconds, unit: " s", digits: 3)); peak resident \(Spread(peaks, unit: " MiB", digits: 0))")
    }

    /// Resets the kernel's peak-resident figure to the current one (Linux 4.0+), answering it in KiB.
    static func resetPeak() -> Int? {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        return status("VmRSS")
    }

    static func peakKiB() -> Int? { status("VmHWM") }

    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first
    }
}
