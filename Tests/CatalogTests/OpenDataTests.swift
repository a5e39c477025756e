import Contracts
import Foundation
import Testing

@testable import CatalogService

/// Reading the Opendatasoft answer of Casey's grounds, without a network.
@Suite("Open data of sports grounds")
struct OpenDataTests {
    @Test("a record with an id, a name, a place and a sport is a venue; others are counted and left out")
    func records() throws {
        let answer = #"""
            {"total_count": 3, "results": [
              {"reserve_id": "R1", "reserve_name": "  Sweeney Reserve ", "street_address": "Sweeney Drive", "suburb": "Narre Warren",
               "postcode": "3805", "sports": "Cricket; Football (Australian); Lacrosse", "facilities": "Two ovals",
               "geo_point_2d": {"lon": 145.2953, "lat": -38.0275}},
              {"reserve_id": "R2", "reserve_name": "Nowhere", "sports": "Cricket"},
              {"reserve_id": "R3", "reserve_name": "Quiet Park", "sports": "", "geo_point_2d": {"lon": 145.3, "lat": -38.0}}
            ]}
            """#
        let page = try CaseyOpenData.page(Data(answer.utf8))
        #expect(page.total == 3 && page.read == 3 && page.skipped == 2)
        let venue = try #require(page.venues.first)
        #expect(venue.source == "casey:R1" && venue.name == "Sweeney Reserve" && venue.postcode == "3805")
        #expect(venue.sports == [.cricket, .football, .other] && venue.description == "Two ovals")
        #expect(venue.location == Location(lat: -38.0275, lng: 145.2953, address: "Sweeney Drive, Narre Warren VIC 3805"))
    }

    @Test("sport names map to Huddle's sports, each once")
    func sports() {
        #expect(CaseyOpenData.sports("Soccer, Football (Soccer); Tennis") == [.soccer, .tennis])
        #expect(CaseyOpenData.sports("AFL; Netball") == [.football, .other])
        #expect(CaseyOpenData.sports(" ; ").isEmpty)
    }
}
