/// A WGS84 position in degrees: `{"lat": 58.98068, "lng": 26.25523}`.
public struct Coordinates: Codable, Equatable, Hashable, Sendable {
    public var lat: Double
    public var lng: Double

    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// Whether both values are finite and inside the ranges the globe allows.
    public var isValid: Bool {
        lat.isFinite && lng.isFinite && (-90...90).contains(lat) && (-180...180).contains(lng)
    }
}
