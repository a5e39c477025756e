import Contracts
import HummingbirdCore
import ServiceHTTP
import Testing

/// The rules a request's query is held to before its handler runs, made once for each operation.
@Suite("Query rules")
struct QueryRulesTests {
    /// What `QueryRules` finds wrong with `query` (a URI's query text) for `operation`.
    static func problems(_ query: String, of operation: APIOperation) throws -> [Problem.FieldError] {
        do {
            try QueryRules(operation).check(URI("/v1/search/venues?" + query).queryParameters)
            return []
        } catch CommonError.validation(let errors) {
            return errors
        }
    }

    @Test("unknown names come first in name order, then each described parameter that is wrong, in name order")
    func problemsInOrder() throws {
        let problems = try Self.problems("zzz=1&hole=500&aaa=2&lat=north", of: CatalogAPI.navigation.operation)
        #expect(problems.map(\.field) == ["aaa", "zzz", "hole", "lat", "lng"])
        #expect(
            problems.map(\.message) == [
                "is not a parameter of this operation", "is not a parameter of this operation", "must be between 1 and 36",
                "must be a number", "is required",
            ])
    }

    @Test("a query the description allows passes, whatever order its parameters come in")
    func allowedQueryPasses() throws {
        #expect(try Self.problems("limit=3&lng=-0.1&lat=51.5", of: SearchAPI.venues.operation).isEmpty)
        #expect(try Self.problems("lat=51.5&lng=-0.1", of: SearchAPI.venues.operation).isEmpty)
    }

    @Test("the rules of one operation are not another's")
    func rulesAreTheOperations() throws {
        #expect(try Self.problems("lat=51.5&lng=-0.1&limit=5", of: SearchAPI.courses.operation).isEmpty)
        #expect(try Self.problems("lat=51.5&lng=-0.1&limit=500", of: SearchAPI.venues.operation).map(\.field) == ["limit"])
        #expect(try Self.problems("lat=51.5&lng=-0.1&radiusKm=5", of: SearchAPI.courses.operation).isEmpty)
        #expect(try Self.problems("lat=51.5&lng=-0.1&radiusKm=5", of: SearchAPI.venues.operation).isEmpty)
        #expect(try Self.problems("lat=51.5&lng=-0.1&radiusKm=501", of: SearchAPI.courses.operation).map(\.field) == ["radiusKm"])
    }
}
