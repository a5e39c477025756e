import Configuration
import Contracts
import Foundation
import HuddleKit
import Logging
import ModuleLauncher
import ProviderStandIns
import ServiceHTTP
import ServiceKitTesting
import Testing

@testable import HuddleModules

/// A player's copy of their data, and an account deletion that outlives a service being down.
@Suite("Account data through the gateway", .serialized)
struct AccountDataThroughGatewayTests {
    @Test(
        "HuddleKit asks for my data and gets it within seconds, my ticket and wallet among it; it expires after the configured time",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func exportWithTicket(store: TestStore) async throws {
        try await StackTests.withFootballStack(
            store: store,
            config: [
                "betting.odds.provider.url": "{feed}", "betting.odds.provider.key": "huddle-dev-football-key",
                "betting.odds.poll.ms": "200",
                // Kept 10 s: at 4 s, with sixteen stacks on two cores, an export could expire between
                // two of the app's checks for it.
                "betting.wallet.grant": "100000", "auth.exports.keep.ms": "10000",
            ],
            body: { gateway, feed in
                let kickoff = Date().addingTimeInterval(3600)
                _ = try await feed.schedule(
                    .init(home: "Levadia", away: "Flora", kickoff: kickoff, odds: .init(home: "1.80", draw: "3.50", away: "4.20")))
                let app = StackTests.app(gateway)
                try await app.register(email: HuddleKitTests.email(), password: "correct horse battery", name: "Exporting Punter")
                let fixture = try await poll {
                    try await app.send(BettingAPI.fixtures, query: BettingAPI.fixturesDay(CalendarDay(containing: kickoff))).items
                        .first { $0.odds != nil && $0.open }
                } until: {
                    $0 != nil
                }
                let priced = try #require(fixture)
                let odds = try #require(priced.odds).home
                let ticket = try await app.send(
                    BettingAPI.placeTicket,
                    body: PlaceTicket(stake: 500, selections: [TicketPick(fixtureId: priced.id, pick: .home, odds: odds)]))

                let export = try await app.exportMyData(checkingEvery: .milliseconds(200), timeout: .seconds(60))
                let document = try #require(export.document)
                #expect(document["betting"]?["tickets"]?.mentions(ticket.id.description) == true)
                #expect(document["betting"]?["transfers"]?.mentions(ticket.id.description) == true)
                #expect(walletBalance(in: document) == 99_500)
                #expect(document["auth"]?["profile"]?.mentions("Exporting Punter") == true)
                // The session the app signed in with, as GET /v1/users/me/sessions lists it.
                let sessions = try await app.signedInDevices()
                #expect(!sessions.isEmpty && sessions.allSatisfy { document["auth"]?["sessions"]?.mentions($0.id.description) == true })
                let file = try #require(try export.documentFile())
                #expect(try JSONDecoder().decode([String: JSONValue].self, from: Data(contentsOf: file)).keys.contains("betting"))
                try? FileManager.default.removeItem(at: file)
                // Asking again once it is ready makes a new one; the old one is gone once it expires.
                #expect(try await app.requestDataExport().id != export.id)
                let expired = try await poll {
                    do {
                        _ = try await app.dataExport(export.id)
                        return false
                    } catch let error as HuddleError { return error.status == 404 }
                } until: {
                    $0
                }
                #expect(expired)
            })
    }

    /// The balance of the one wallet betting exported.
    private func walletBalance(in document: [String: PersonalData]) -> Int64? {
        guard case .array(let rows)? = document["betting"]?["wallet"], rows.count == 1, case .object(let row) = rows[0],
            case .integer(let balance)? = row["balance"]
        else { return nil }
        return balance
    }

    @Test(
        "an account deleted while chat is down: operators see chat not reached and the rest erased; chat erases the messages once it is back",
        StackTests.embeddedOnly, arguments: StackTests.stores)
    func deletionWhileChatIsDown(store: TestStore) async throws {
        // Chat listens where it is given a port each time it starts, and the rest of the stack is told
        // (a port chosen beforehand could be taken by another test's server in between); while it is
        // down, the stack is pointed where nothing listens.
        let nowhere = "http://127.0.0.1:1"
        // Chat's store outlives its stop: on SQLite a file, where the other stores stay in memory.
        let chatFile = FileManager.default.temporaryDirectory.appendingPathComponent("chat-\(UUID().uuidString).sqlite").path
        let chatStore = store == .sqlite ? ["chat.db.url": "sqlite:\(chatFile)"] : [:]
        let made = try await store.freshDatabases(for: HuddleModules.available, besides: chatStore)
        var settings = StackTests.settings(
            config: made.merging(chatStore) { _, given in given }.merging([
                "chat.url": nowhere, "gateway.upstream.resolve.ms": "0", "auth.events.retry.max.ms": "300",
                "catalog.events.retry.max.ms": "300", "games.events.retry.max.ms": "300",
            ]) { _, given in given })
        defer { try? FileManager.default.removeItem(atPath: chatFile) }
        let logger = Logger(label: "stack-test")
        let stack = try await EmbeddedStack.start(
            modules: HuddleModules.available.filter { $0 != .chat },
            reader: ConfigReader(provider: EnvironmentVariablesProvider.settings(settings)),
            internalKeys: TestStack.internalKeys, logger: logger, startupTimeout: TestStack.startupPatience)
        settings["auth.url"] = stack.url(of: .auth)
        settings["media.url"] = stack.url(of: .media)
        let chatSettings = ConfigReader(provider: EnvironmentVariablesProvider.settings(settings))
        func startChat() async throws -> EmbeddedStack {
            let chat = try await EmbeddedStack.start(
                modules: [.chat], reader: chatSettings, internalKeys: TestStack.internalKeys, logger: logger,
                startupTimeout: TestStack.startupPatience)
            stack.runner.directory.set(.chat, url: chat.url(of: .chat))
            return chat
        }
        var chat = try await startChat()
        do {
            let gateway = TestClient(baseURL: stack.url(of: .gateway))
            let admin = try await StackTests.administrator(gateway)
            let yuri = try await gateway.register(name: "Yuri Leaving"), bo = try await gateway.register(name: "Bo Staying")
            let global = try #require(try await gateway.value(ChatAPI.rooms, token: yuri.accessToken).items.first { $0.kind == .global })
            let said = try await gateway.value(
                ChatAPI.send, global.id, body: SendChatMessage(text: "gone soon", clientMessageId: "gone-1"), token: yuri.accessToken)

            try await chat.stop()
            stack.runner.directory.set(.chat, url: nowhere)
            _ = try expect(
                204,
                try await gateway.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: yuri.accessToken))
            let waiting = try await poll {
                try await gateway.value(AuthAPI.deletionProgress, yuri.user.id, token: admin.accessToken)
            } until: {
                $0.services.filter { $0.module != .chat }.allSatisfy { $0.state == .erased }
            }
            #expect(!waiting.complete && waiting.services.first { $0.module == .chat }?.state == .unreachable)

            chat = try await startChat()
            let done = try await poll {
                try await gateway.value(AuthAPI.deletionProgress, yuri.user.id, token: admin.accessToken)
            } until: {
                $0.complete
            }
            #expect(done.services.allSatisfy { $0.state == .erased && $0.erasedAt != nil })
            let history = try await gateway.value(
                ChatAPI.messages, global.id, query: ChatAPI.messagesAfter(said.seq - 1) + Query.limit(1), token: bo.accessToken)
            #expect(history.items.map(\.id) == [said.id] && history.items.allSatisfy { $0.deleted == true && $0.text.isEmpty })
        } catch {
            try? await chat.stop()
            try? await stack.stop()
            await TestStore.dropDatabases(made.values)
            throw error
        }
        try await chat.stop()
        try await stack.stop()
        await TestStore.dropDatabases(made.values)
    }
}
