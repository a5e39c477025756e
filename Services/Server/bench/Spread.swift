import Foundation

/// A figure measured over several runs or rounds: its median and the range the runs covered, as
/// the README quotes figures on a shared, noisy machine.
struct Spread: CustomStringConvertible {
    let values: [Double]
    var unit = ""
    var digits = 2

    init(_ values: [Double], unit: String = "", digits: Int = 2) {
        self.values = values.sorted()
        self.unit = unit
        self.digits = digits
    }

    var median: Double { values.isEmpty ? .nan : values[values.count / 2] }

    var description: String {
        func format(_ value: Double) -> String { String(format: "%.\(digits)f", value) }
        guard let low = values.first, let high = values.last else { return "none" }
        return values.count == 1 ? format(low) + unit : "\(format(median))\(unit) (\(format(low))–\(format(high)))"
    }
}

/// The value below which a fraction `p` of `sorted` lies (nearest rank).
func percentile(_ sorted: [Double], _ p: Double) -> Double {
    sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}
