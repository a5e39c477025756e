import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// The restore drill's steps through a running gateway, one a run (`HUDDLE_DRILL_PHASE`), with what a
/// later step needs in the file `HUDDLE_DRILL_STATE`. deploy/backup/drill.sh runs them around a
/// PostgreSQL base backup, a restore time it notes between the second and third steps, and a
/// point-in-time restore. Each of the first three steps places a ticket and sends a message in a team
/// room, labelled by the step; the third also deletes Bo's account. After the restore the last step
/// finds the first two steps' tickets, messages and receipts once each, nothing of the third, Bo still
/// deleted, and a new ticket and message flowing through to a receipt as before.
@Suite("Point-in-time recovery drill", .enabled(if: drillPhase != nil, "run by deploy/backup/drill.sh"))
struct RestoreDrillTests {
    static let phase = drillPhase
    static let stateFile = URL(fileURLWithPath: ProcessInfo.processInfo.environment["HUDDLE_DRILL_STATE"] ?? "drill-state.json")
    static let password = "drill password 1"

    struct State: Codable {
        var ann: String
        var bo: String
        var team: TeamID
        var tickets: [String: TicketID] = [:]
    }

    @Test("a step of the restore drill")
    func step() async throws {
        let gateway = TestClient(baseURL: try #require(StackTests.deployedGateway, "HUDDLE_TEST_GATEWAY_URL"))
        switch Self.phase {
        case "before":
            let run = UUID().uuidString.prefix(8).lowercased()
            let ann = try await gateway.register(name: "Ann Drill", email: "ann-drill-\(run)@example.com", password: Self.password)
            _ = try await gateway.register(name: "Bo Drill", email: "bo-drill-\(run)@example.com", password: Self.password)
            let team = try await gateway.value(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Drill \(run)", sport: .soccer, privacy: .public, location: Location(lat: 59.44, lng: 24.75), ageGroup: .adult,
                    gender: .coed, skill: .any),
                token: ann.accessToken)
            var state = State(ann: "ann-drill-\(run)@example.com", bo: "bo-drill-\(run)@example.com", team: team.id)
            state.tickets["before"] = try await Self.act("before", state, gateway, token: ann.accessToken)
            try Self.save(state)
        case "between", "after":
            var state = try Self.load()
            let label = try #require(Self.phase)
            let ann = try await Self.signIn(state.ann, gateway)
            state.tickets[label] = try await Self.act(label, state, gateway, token: ann)
            if label == "after" {
                let bo = try await Self.signIn(state.bo, gateway)
                let deleted = try await gateway.call(AuthAPI.deleteMe, body: DeleteAccountRequest(password: Self.password), token: bo)
                #expect(deleted.status == 204)
            }
            try Self.save(state)
        case "restored":
            try await Self.checkRestored(try Self.load(), gateway)
        default:
            Issue.record("HUDDLE_DRILL_PHASE is before, between, after or restored")
        }
    }

    /// What the restore kept and what it did not, then a new ticket and message flowing as before.
    static func checkRestored(_ state: State, _ gateway: TestClient) async throws {
        // Bo's deletion came after the restore time; auth applied it again from the erasure journal.
        let bo = try await gateway.call(AuthAPI.login, body: LoginRequest(email: state.bo, password: password))
        #expect(bo.status == 401, "Bo, deleted after the restore time, signs in again")
        let ann = try await signIn(state.ann, gateway)
        let kept = try #require(state.tickets["before"]).description, between = try #require(state.tickets["between"]).description
        let lost = try #require(state.tickets["after"]).description
        let tickets = Set(try await gateway.value(BettingAPI.tickets, token: ann).items.map(\.id.description))
        #expect(tickets.isSuperset(of: [kept, between]) && !tickets.contains(lost), "tickets after the restore: \(tickets)")
        #expect(try await drillMessages(state, gateway, token: ann) == ["drill-before", "drill-between"])

        // The receipts of the kept tickets, once each: those notify had before the restore time, and any
        // betting had not yet delivered by then, sent now.
        let receipts = try await poll {
            try await ticketReceipts(gateway, token: ann)
        } until: {
            Set($0).isSuperset(of: [kept, between])
        }
        #expect(receipts.filter { $0 == kept }.count == 1 && receipts.filter { $0 == between }.count == 1, "receipts: \(receipts)")
        #expect(!receipts.contains(lost))

        let fresh = try await act("restored", state, gateway, token: ann).description
        let after = try await poll {
            try await ticketReceipts(gateway, token: ann)
        } until: {
            $0.contains(fresh)
        }
        #expect(after.filter { $0 == fresh }.count == 1 && after.count == receipts.count + 1, "receipts: \(after)")
        #expect(try await drillMessages(state, gateway, token: ann) == ["drill-before", "drill-between", "drill-restored"])
    }

    /// Places a ticket on an open fixture and sends a message to the team's room, both labelled `label`.
    static func act(_ label: String, _ state: State, _ gateway: TestClient, token: String) async throws -> TicketID {
        let room = try await teamRoom(state, gateway, token: token)
        _ = try await gateway.value(
            ChatAPI.send, room.id, body: SendChatMessage(text: "drill \(label)", clientMessageId: "drill-\(label)"), token: token)
        // The feed's odds move every few seconds: a ticket priced a moment ago may be refused; read again. A
        // fixture may be waiting for its price (betting asks every few seconds), so read for up to a minute.
        for _ in 0..<60 {
            let fixtures = try await gateway.value(BettingAPI.fixtures, token: token).items
            guard let fixture = fixtures.first(where: { $0.open && $0.odds != nil }), let odds = fixture.odds else {
                try await Task.sleep(for: .seconds(1))
                continue
            }
            let response = try await gateway.call(
                BettingAPI.placeTicket,
                body: PlaceTicket(
                    stake: 100, selections: [TicketPick(fixtureId: fixture.id, pick: .home, odds: odds.home)], acceptBetterOdds: true),
                token: token, headers: ["Idempotency-Key": "drill-\(state.ann)-\(label)"])
            if (200..<300).contains(response.status) { return try response.decode(Ticket.self).id }
            try #require(response.status == 409, "placing the \(label) ticket: \(response.status)")
        }
        throw UnexpectedDrill(what: "no open fixture took the \(label) ticket")
    }

    static func teamRoom(_ state: State, _ gateway: TestClient, token: String) async throws -> ChatRoom {
        let rooms = try await poll {
            try await gateway.value(ChatAPI.rooms, token: token).items.filter { $0.kind == .team && $0.subjectId == state.team.description }
        } until: {
            !$0.isEmpty
        }
        return try #require(rooms.first, "the drill team's room")
    }

    static func drillMessages(_ state: State, _ gateway: TestClient, token: String) async throws -> [String] {
        let room = try await teamRoom(state, gateway, token: token)
        return try await gateway.value(ChatAPI.messages, room.id, token: token).items.map(\.clientMessageId)
            .filter { $0.hasPrefix("drill-") }.sorted { order($0) < order($1) }
    }

    static func order(_ id: String) -> Int { ["drill-before", "drill-between", "drill-after", "drill-restored"].firstIndex(of: id) ?? 9 }

    static func ticketReceipts(_ gateway: TestClient, token: String) async throws -> [String] {
        try await gateway.value(NotifyAPI.inbox, token: token).items.filter { $0.category == .ticket && $0.title == "Ticket placed" }
            .compactMap { $0.data.ticketId?.description }
    }

    static func signIn(_ email: String, _ gateway: TestClient) async throws -> String {
        try await gateway.value(AuthAPI.login, body: LoginRequest(email: email, password: password)).accessToken
    }

    static func save(_ state: State) throws { try JSONEncoder().encode(state).write(to: stateFile) }
    static func load() throws -> State { try JSONDecoder().decode(State.self, from: Data(contentsOf: stateFile)) }
}

/// Which step of the restore drill this run is (nil: not a drill).
let drillPhase = ProcessInfo.processInfo.environment["HUDDLE_DRILL_PHASE"]

struct UnexpectedDrill: Error, CustomStringConvertible {
    let what: String
    var description: String { what }
}
