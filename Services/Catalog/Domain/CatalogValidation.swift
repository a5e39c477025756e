import Contracts
import Foundation
import ServiceKit

/// Field rules for catalog's requests. Each check returns every problem at once, so a client can
/// show them all; `require` throws them as one 422.
enum CatalogValidation {
    static let nameLength = 2...80

    static func name(_ value: String, field: String = "name") -> [Problem.FieldError] {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        return nameLength.contains(trimmed.count)
            ? [] : [.init(field: field, message: "must be \(nameLength.lowerBound) to \(nameLength.upperBound) characters")]
    }

    static func location(_ value: Location, field: String = "location") -> [Problem.FieldError] {
        var errors = coordinates(value.coordinates, field: field)
        if let address = value.address, address.count > 200 {
            errors.append(.init(field: path(field, "address"), message: "must be at most 200 characters"))
        }
        return errors
    }

    /// `field` is the path of the object holding the values; empty when they are top-level (query parameters).
    static func coordinates(_ value: Coordinates, field: String) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        if !(value.lat.isFinite && (-90...90).contains(value.lat)) {
            errors.append(.init(field: path(field, "lat"), message: "must be between -90 and 90"))
        }
        if !(value.lng.isFinite && (-180...180).contains(value.lng)) {
            errors.append(.init(field: path(field, "lng"), message: "must be between -180 and 180"))
        }
        return errors
    }

    static func website(_ value: String?, field: String = "website") -> [Problem.FieldError] {
        guard let value else { return [] }
        guard value.count <= 500, let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
            url.host != nil
        else { return [.init(field: field, message: "must be an http(s) URL")] }
        return []
    }

    /// Holes of a new course: numbered 1…n without gaps or repeats, par 2–7, valid coordinates.
    static func holes(_ holes: [Hole]) -> [Problem.FieldError] {
        guard (1...36).contains(holes.count) else { return [.init(field: "holes", message: "must list 1 to 36 holes")] }
        var errors: [Problem.FieldError] = []
        var seen = Set<Int>()
        for (index, hole) in holes.enumerated() {
            errors += self.hole(hole, field: "holes[\(index)]")
            if !seen.insert(hole.number).inserted {
                errors.append(.init(field: "holes[\(index)].number", message: "hole \(hole.number) is listed twice"))
            }
        }
        if errors.isEmpty, seen != Set(1...holes.count) {
            errors.append(.init(field: "holes", message: "must be numbered 1 to \(holes.count) without gaps"))
        }
        return errors
    }

    static func hole(_ hole: Hole, field: String) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        if !(1...36).contains(hole.number) { errors.append(.init(field: path(field, "number"), message: "must be from 1 to 36")) }
        if !(2...7).contains(hole.par) { errors.append(.init(field: path(field, "par"), message: "must be from 2 to 7")) }
        return errors + coordinates(hole.tee, field: path(field, "tee")) + coordinates(hole.basket, field: path(field, "basket"))
    }

    private static func path(_ parent: String, _ name: String) -> String { parent.isEmpty ? name : "\(parent).\(name)" }

    static func require(_ errors: [Problem.FieldError]) throws {
        if !errors.isEmpty { throw CommonError.validation(errors) }
    }

    static func trimmed(_ name: String) -> String { name.trimmingCharacters(in: .whitespacesAndNewlines) }
}
