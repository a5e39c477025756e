public import Contracts

/// Field checks every service shares. Each returns every problem at once, so a client can show
/// them all; `require` throws them as one 422.
public enum FieldRules {
    public static func location(_ value: Location, field: String = "location") -> [Problem.FieldError] {
        var errors = coordinates(value.coordinates, field: field)
        if let message = value.address.flatMap(Location.address.problem) {
            errors.append(.init(field: path(field, "address"), message: message))
        }
        return errors
    }

    /// `field` is the path of the object holding the values; empty when they are top-level (query parameters).
    public static func coordinates(_ value: Coordinates, field: String) -> [Problem.FieldError] {
        var errors: [Problem.FieldError] = []
        if !(value.lat.isFinite && (-90...90).contains(value.lat)) {
            errors.append(.invalid(path(field, "lat"), "must be between -90 and 90"))
        }
        if !(value.lng.isFinite && (-180...180).contains(value.lng)) {
            errors.append(.invalid(path(field, "lng"), "must be between -180 and 180"))
        }
        return errors
    }

    /// `parent.name`, or `name` alone at the top level.
    public static func path(_ parent: String, _ name: String) -> String { parent.isEmpty ? name : "\(parent).\(name)" }

    public static func require(_ errors: [Problem.FieldError]) throws {
        if !errors.isEmpty { throw CommonError.validation(errors) }
    }
}
