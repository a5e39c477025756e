import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// iSport's readers in Italy read Italian headlines; Estonian readers theirs.
@Suite("News for a country, through the gateway")
struct NewsThroughGatewayTests {
    @Test("news lists keep a country's articles in its language; a country code that is not one is a 422", arguments: StackTests.stores)
    func newsForACountry(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let admin = try await StackTests.administrator(gateway)
            let marker = UUID().uuidString.prefix(8).lowercased()
            func article(_ title: String, country: String?, language: String?) -> NewsIngestRequest.Article {
                NewsIngestRequest.Article(
                    title: title, summary: "", url: "https://news.example/\(marker)/\(title.hashValue)", imageUrl: nil, source: "Test Wire",
                    sport: .soccer, publishedAt: Date(), country: country, language: language)
            }
            let articles = [
                article("Derby a Milano", country: "it", language: "it"), article("Derby in Milan", country: "it", language: "en"),
                article("Tallinna derbi", country: "ee", language: "et"), article("World news", country: nil, language: nil),
            ]
            _ = try await gateway.value(CatalogAPI.publishNews, body: NewsIngestRequest(articles: articles), token: admin.accessToken)
            // Only this test's articles: against a deployed stack, others are there too.
            func titles(_ query: QueryItems) async throws -> [String] {
                try await gateway.value(CatalogAPI.news, query: query + Query.limit(100)).items.filter { $0.url.contains(marker) }.map(
                    \.title)
            }
            #expect(try await titles(CatalogAPI.newsCountry("it") + CatalogAPI.newsLanguage("it")) == ["Derby a Milano"])
            #expect(Set(try await titles(CatalogAPI.newsCountry("IT"))) == ["Derby a Milano", "Derby in Milan"])
            #expect(try await titles(CatalogAPI.newsLanguage("et")) == ["Tallinna derbi"])
            #expect(try await titles(QueryItems()).count == 4)
            let bad = try await gateway.call(CatalogAPI.news, rawQuery: "country=italy")
            #expect(bad.status == 422 && bad.problem?.errors?.map(\.field) == ["country"])
        }
    }
}
