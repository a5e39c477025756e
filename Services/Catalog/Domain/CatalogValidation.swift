import Contracts
import Foundation
import ServiceHTTP

/// Field rules for catalog's requests, beside the shared `FieldRules`.
enum CatalogValidation {
    static func name(_ value: String, field: String = "name") -> [Problem.FieldError] {
        TextRule.catalogName.problem(value).map { [.init(field: field, message: $0)] } ?? []
    }

    static func website(_ value: String?, field: String = "website") -> [Problem.FieldError] {
        value.flatMap(WebAddressRule.website.problem).map { [.init(field: field, message: $0)] } ?? []
    }

    /// Holes of a new course: numbered 1…n without gaps or repeats, par 2–7, valid coordinates.
    static func holes(_ holes: [Hole]) -> [Problem.FieldError] {
        guard (1...Hole.maxNumber).contains(holes.count) else {
            return [.invalid("holes", "must list 1 to \(Hole.maxNumber) holes")]
        }
        var errors: [Problem.FieldError] = []
        var seen = Set<Int>()
        for (index, hole) in holes.enumerated() {
            errors += self.hole(hole, field: "holes[\(index)]")
            if !seen.insert(hole.number).inserted {
                errors.append(.invalid("holes[\(index)].number", "hole \(hole.number) is listed twice"))
            }
        }
        if errors.isEmpty, seen != Set(1...holes.count) {
            errors.append(.invalid("holes", "must be numbered 1 to \(holes.count) without gaps"))
        }
        return errors
    }

    static func hole(_ hole: Hole, field: String) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        if !(1...Hole.maxNumber).contains(hole.number) {
            errors.append(.invalid(FieldRules.path(field, "number"), "must be from 1 to \(Hole.maxNumber)"))
        }
        if !Hole.parRange.contains(hole.par) {
            let (low, high) = (Hole.parRange.lowerBound, Hole.parRange.upperBound)
            errors.append(.invalid(FieldRules.path(field, "par"), "must be from \(low) to \(high)"))
        }
        if (hole.tee == nil) != (hole.basket == nil) {
            let missing = hole.tee == nil ? "tee" : "basket"
            errors.append(.invalid(FieldRules.path(field, missing), "is needed with the other position, or neither until surveyed"))
        }
        return errors + (hole.tee.map { FieldRules.coordinates($0, field: FieldRules.path(field, "tee")) } ?? [])
            + (hole.basket.map { FieldRules.coordinates($0, field: FieldRules.path(field, "basket")) } ?? [])
    }
}
