import Configuration
import Contracts
import Foundation
import Hummingbird
import Logging
import NIOConcurrencyHelpers
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import CatalogService

/// A weather and news provider served by the test itself, counting the calls it gets.
struct FakeProviders {
    let url: String
    let calls: NIOLockedValueBox<[String: Int]>

    static let feed = #"""
        {"status":"ok","totalResults":3,"articles":[
          {"source":{"id":null,"name":"ERR Sport"},"title":"Levadia wins the derby","description":"A late goal settles it.",
           "url":"https://news.example/levadia","urlToImage":"https://news.example/levadia.jpg","publishedAt":"2026-11-21T18:30:00Z"},
          {"source":{"name":"Postimees"},"title":"Flora signs a striker","description":null,
           "url":"https://news.example/flora","urlToImage":null,"publishedAt":"2026-11-22T08:00:00Z"},
          {"source":{"name":"Spam"},"title":"[Removed]","description":"","url":"https://removed.com","publishedAt":"2026-11-22T08:00:00Z"}
        ]}
        """#

    static let italianFeed = #"""
        {"status":"ok","totalResults":1,"articles":[
          {"source":{"name":"La Gazzetta dello Sport"},"title":"Il Milan vince il derby","description":"Decide un gol nel finale.",
           "url":"https://news.example/it/derby","urlToImage":null,"publishedAt":"2026-11-22T09:00:00Z"}
        ]}
        """#

    static func with<T>(_ body: (FakeProviders) async throws -> T) async throws -> T {
        let calls = NIOLockedValueBox<[String: Int]>([:])
        let router = Router()
        router.get("/v1/forecast") { request, _ in
            calls.withLockedValue { $0["weather", default: 0] += 1 }
            let lat = request.uri.queryParameters["latitude"] ?? "?"
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(
                    byteBuffer: ByteBuffer(
                        string: """
                            {"latitude":\(lat),"current_weather":{"temperature":4.5,"windspeed":12.2,"winddirection":250,"weathercode":3,"time":"2026-11-22T10:00"}}
                            """)))
        }
        router.get("/slow/v1/forecast") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return "too late"
        }
        router.get("/news") { _, _ in
            calls.withLockedValue { $0["news", default: 0] += 1 }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: feed)))
        }
        router.get("/news/it") { _, _ in
            calls.withLockedValue { $0["news/it", default: 0] += 1 }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: italianFeed)))
        }
        router.get("/news/down") { _, _ in Response(status: .serviceUnavailable) }
        return try await withServerOnPort0({ onListening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) }, logger: Logger(label: "providers"))
        }) { url in try await body(FakeProviders(url: url, calls: calls)) }
    }

    func count(_ name: String) -> Int { calls.withLockedValue { $0[name] ?? 0 } }
}

@Suite("Weather and news providers")
struct ProviderTests {
    @Test("Weather comes from the provider and is cached per course")
    func weatherCached() async throws {
        try await FakeProviders.with { providers in
            try await CatalogHarness.with(config: ["catalog.weather.url": providers.url]) { h in
                let course = try await h.course()
                let first = try await h.catalog.call(CatalogAPI.weather, course.id)
                #expect(first.status == 200)
                let weather = try first.decode(Weather.self)
                #expect(weather.courseId == course.id && weather.temperatureCelsius == 4.5 && weather.windDirectionDegrees == 250)
                #expect(weather.weatherCode == 3 && weather.observedAt == "2026-11-22T10:00")
                #expect(try await h.catalog.call(CatalogAPI.weather, course.id).decode(Weather.self) == weather)
                #expect(providers.count("weather") == 1)
                #expect(try await h.catalog.call(CatalogAPI.weather, CourseID()).status == 404)
            }
        }
    }

    @Test("A provider that is down or too slow is a 503 problem, not a 500")
    func weatherUnavailable() async throws {
        try await FakeProviders.with { providers in
            for url in ["http://127.0.0.1:1", providers.url + "/slow"] {
                try await CatalogHarness.with(config: ["catalog.weather.url": url, "catalog.weather.timeout.ms": "300"]) { h in
                    let course = try await h.course()
                    let response = try await h.catalog.call(CatalogAPI.weather, course.id)
                    #expect(response.status == 503)
                    #expect(response.problem?.code == "WEATHER_UNAVAILABLE")
                    #expect(response.header("Content-Type") == "application/problem+json")
                }
            }
        }
    }

    @Test("The news adapter polls the feed and ingests each article once")
    func newsPolling() async throws {
        try await FakeProviders.with { providers in
            let config = ["catalog.news.url": providers.url + "/news", "catalog.news.poll.ms": "50", "catalog.news.sport": "soccer"]
            try await CatalogHarness.with(config: config) { h in
                func articles() async throws -> [NewsArticle] {
                    try await h.catalog.call(CatalogAPI.news).decode(Page<NewsArticle>.self).items
                }
                #expect(try await eventually { try await articles().count >= 2 })
                // Let the same feed come back a few more times: nothing is added twice.
                let polls = providers.count("news")
                #expect(try await eventually { providers.count("news") >= polls + 3 })
                let news = try await h.catalog.call(CatalogAPI.news).decode(Page<NewsArticle>.self)
                #expect(news.items.map(\.title) == ["Flora signs a striker", "Levadia wins the derby"])
                #expect(news.items.map(\.source) == ["Postimees", "ERR Sport"])
                #expect(news.items.allSatisfy { $0.sport == .soccer })
            }
        }
    }

    @Test("Several feeds are polled, each article marked with its feed's country and language; one feed down leaves the others")
    func newsForACountry() async throws {
        try await FakeProviders.with { providers in
            let feeds = "it:it=\(providers.url)/news/it, ee:et:soccer=\(providers.url)/news, it:en=\(providers.url)/news/down"
            try await CatalogHarness.with(config: ["catalog.news.feeds": feeds, "catalog.news.poll.ms": "50"]) { h in
                func titles(_ query: QueryItems = QueryItems()) async throws -> [String] {
                    try await h.catalog.call(CatalogAPI.news, query: query).decode(Page<NewsArticle>.self).items.map(\.title)
                }
                #expect(try await eventually { try await titles().count == 3 })
                #expect(try await titles(CatalogAPI.newsCountry("it") + CatalogAPI.newsLanguage("it")) == ["Il Milan vince il derby"])
                #expect(try await titles(CatalogAPI.newsCountry("EE")) == ["Flora signs a striker", "Levadia wins the derby"])
                #expect(try await titles(CatalogAPI.newsLanguage("en")).isEmpty)
                let italian = try await h.catalog.call(CatalogAPI.news, query: CatalogAPI.newsCountry("it")).decode(Page<NewsArticle>.self)
                #expect(italian.items.first?.country == "it" && italian.items.first?.language == "it")
                let bad = try await h.catalog.call(CatalogAPI.news, rawQuery: "country=ita")
                #expect(bad.status == 422 && bad.problem?.errors?.map(\.field) == ["country"])
            }
        }
    }

    @Test("A news feed entry that is not country:language[:sport]=url stops catalog from starting, naming the key")
    func badFeedEntry() throws {
        let reader = ConfigReader(provider: EnvironmentVariablesProvider.settings(["catalog.news.feeds": "italy=https://feed.example"]))
        #expect(throws: MissingConfiguration.self) { try CatalogSettings(reader: reader) }
        #expect(NewsPoller.Feed("it:it:cricket=https://feed.example/it")?.sport == .cricket)
        #expect(NewsPoller.Feed("it:it=ftp://feed.example") == nil)
    }

    @Test(
        "Two instances on one database poll the news feed as one; the other takes over within seconds when the holder stops",
        .enabled(if: TestStore.postgresURL != nil))
    func newsPolledOnceAcrossInstances() async throws {
        try await FakeProviders.with { providers in
            let shared = try await TestStore.postgres.freshDatabaseURL()
            // A poll a minute: the holder polls once when it takes the lease, and not again during the test.
            let config = ["catalog.news.url": providers.url + "/news", "catalog.news.poll.ms": "60000", "catalog.db.url": shared]
            try await CatalogHarness.with(store: .postgres, config: config) { first in
                #expect(try await eventually { providers.count("news") == 1 })
                let catalogOnly = CatalogHarness.builders.filter { $0.module == .catalog }
                let second = try await TestStack.start(
                    catalogOnly, store: .postgres, config: config, directory: [.auth: first.stack.url(.auth)])
                defer { Task { await second.stop() } }
                // The second instance asks for the lease on start and every three seconds after: it is held.
                try await Task.sleep(for: .seconds(4))
                #expect(providers.count("news") == 1)

                await first.stack.stop()
                // The lease lapses ten seconds after the holder's last renewal; the second takes it and polls at once.
                #expect(try await eventually(within: .seconds(30)) { providers.count("news") == 2 }, "the second instance never polled")
            }
        }
    }
}
