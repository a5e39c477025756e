import Contracts
import ServerContracts
import ServiceHTTP

/// Problems only search raises; shared ones (validation, 401, 404, 503) come from `CommonError`.
enum SearchError: ProblemError {
    /// An owner did not answer during a rebuild: what was read before stays indexed, and the
    /// operator learns which owner to bring back before running it again.
    case reindexInterrupted(owner: ServiceModule, indexedSoFar: ReindexResult)
    /// The geocoding provider knows no such postcode in that country.
    case unknownPostcode(String, country: String)
    /// The geocoding provider did not answer in time.
    case geocodingUnavailable

    var problem: Problem {
        switch self {
        case .reindexInterrupted(let owner, let done):
            Problem(
                .dependencyUnavailable,
                title: "Reindex interrupted",
                detail: "\(owner.rawValue) did not answer, so the index was rebuilt only in part (games \(done.games), teams "
                    + "\(done.teams), courses \(done.courses), venues \(done.venues), players \(done.players)). Events keep it "
                    + "current meanwhile; run the reindex again once \(owner.rawValue) answers.")
        case .unknownPostcode(let postcode, let country):
            Problem(
                .unknownPostcode, title: "Unknown postcode",
                detail: localized("No place has the postcode \(postcode) in \(country); check it, or search by lat and lng."))
        case .geocodingUnavailable:
            Problem(
                .dependencyUnavailable, title: "Geocoding unavailable",
                detail: localized("The geocoding provider did not answer; try again shortly, or search by lat and lng."))
        }
    }
}
