import Contracts
import Foundation
import NIOHTTP1
import ServiceKitTesting
import Testing

@Suite("Wallet, slip and tickets")
struct TicketsTests {
    static let json = ["Content-Type": "application/json"]

    @Test("A new wallet opens once with the grant, and its ledger entries say so", arguments: TestStore.all)
    func walletOpensWithGrant(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let ann = try await h.player("Ann")
            // Concurrent first requests still grant once.
            let wallets = try await withThrowingTaskGroup(of: Wallet.self) { group in
                for _ in 0..<8 { group.addTask { try await h.wallet(ann) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(wallets.allSatisfy { $0 == Wallet(balance: 10_000, currency: "EUR") })
            let entries = try await expect(200, h.betting.call(BettingAPI.transactions, token: ann.accessToken))
                .decode(Page<WalletTransaction>.self)
            #expect(entries.items.map(\.kind) == [.grant] && entries.items.first?.amount == 10_000)
            #expect(try await h.betting.call(BettingAPI.wallet).status == 401)
        }
    }

    @Test("A placed ticket takes its picks off the slip, and the stake with the last of them", arguments: TestStore.all)
    func placedTicketEmptiesTheSlip(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let ann = try await h.player()
            let derby = try await h.fixture("Flora", "Levadia"), cup = try await h.fixture("Kalju", "Narva")
            for fixture in [derby, cup] {
                _ = try await expect(200, h.betting.call(BettingAPI.pick, fixture.id, body: SlipPick(pick: .home), token: ann.accessToken))
            }
            _ = try await expect(200, h.betting.call(BettingAPI.stake, body: SlipStake(stake: 500), token: ann.accessToken))
            func slip() async throws -> Slip {
                try await expect(200, h.betting.call(BettingAPI.slip, token: ann.accessToken)).decode(Slip.self)
            }
            _ = try await expect(201, h.place(PlaceTicket(stake: 500, selections: [derby.pick(.home)]), as: ann))
            let left = try await slip()
            #expect(left.selections.map(\.fixtureId) == [cup.id] && left.stake == 500)
            _ = try await expect(201, h.place(PlaceTicket(stake: 500, selections: [cup.pick(.home)]), as: ann))
            let emptied = try await slip()
            #expect(emptied.selections.isEmpty && emptied.stake == nil)
        }
    }

    @Test("The slip prices picks exactly, replaces a pick per fixture, and refuses closed markets, a stake out of range and a fourth pick")
    func slip() async throws {
        try await BettingHarness.with { h in
            let ann = try await h.player()
            let derby = try await h.fixture("Flora", "Levadia", odds: ("1.333", "3.10", "4.00"))
            let cup = try await h.fixture("Kalju", "Narva", odds: ("1.333", "3.30", "2.50"))
            func slip(_ response: TestClient.Response) throws -> Slip { try response.decode(Slip.self) }
            _ = try await expect(
                200, h.betting.call(BettingAPI.pick, derby.id, body: SlipPick(pick: .away), token: ann.accessToken))
            var current = try slip(
                try await expect(
                    200, h.betting.call(BettingAPI.pick, derby.id, body: SlipPick(pick: .home), token: ann.accessToken)))
            #expect(current.selections.map(\.pick) == [.home] && current.potentialWinnings == 0)
            // The odds' names are taken too, and answered as 1X2; anything else is named in the 422.
            let named = try await expect(
                200,
                h.betting.call(
                    BettingAPI.pick, derby.id, rawBody: Data(#"{"pick":"draw"}"#.utf8), token: ann.accessToken, headers: Self.json))
            #expect(try slip(named).selections.map(\.pick) == [.draw] && String(decoding: named.body, as: UTF8.self).contains("\"X\""))
            let unknown = try await h.betting.call(
                BettingAPI.pick, derby.id, rawBody: Data(#"{"pick":"hom"}"#.utf8), token: ann.accessToken, headers: Self.json)
            #expect(unknown.status == 422 && String(decoding: unknown.body, as: UTF8.self).contains("pick"))
            current = try slip(
                try await expect(
                    200, h.betting.call(BettingAPI.pick, derby.id, body: SlipPick(pick: .home), token: ann.accessToken)))
            _ = try await expect(
                200, h.betting.call(BettingAPI.pick, cup.id, body: SlipPick(pick: .home), token: ann.accessToken))
            current = try slip(
                try await expect(200, h.betting.call(BettingAPI.stake, body: SlipStake(stake: 333), token: ann.accessToken)))
            // 333 × 1.333 × 1.333 = 591.697… → 591; total odds 1.776889 → 1.776.
            #expect(current.potentialWinnings == 591 && current.totalOdds == Odds("1.776") && current.stake == 333)

            let tooSmall = try await h.betting.call(BettingAPI.stake, body: SlipStake(stake: 99), token: ann.accessToken)
            #expect(tooSmall.status == 422 && tooSmall.problemCode == "STAKE_OUT_OF_RANGE")
            let third = try await h.fixture("Tammeka", "Trans")
            let fourth = try await h.fixture("Paide", "Kuressaare")
            _ = try await expect(
                200, h.betting.call(BettingAPI.pick, third.id, body: SlipPick(pick: .draw), token: ann.accessToken))
            let tooMany = try await h.betting.call(BettingAPI.pick, fourth.id, body: SlipPick(pick: .draw), token: ann.accessToken)
            #expect(tooMany.status == 422 && tooMany.problemCode == "TOO_MANY_SELECTIONS")

            try await h.finish(fourth, status: .firstHalf, regularTime: nil)
            _ = try await h.waitFor(fourth.id) { !$0.open }
            let closed = try await h.betting.call(BettingAPI.pick, fourth.id, body: SlipPick(pick: .home), token: ann.accessToken)
            #expect(closed.status == 422 && closed.problemCode == "FIXTURE_STARTED")
            #expect(
                try await h.betting.call(BettingAPI.pick, MatchID(), body: SlipPick(pick: .home), token: ann.accessToken)
                    .status == 404)

            current = try slip(try await expect(200, h.betting.call(BettingAPI.unpick, third.id, token: ann.accessToken)))
            #expect(current.selections.count == 2)
            current = try slip(try await expect(200, h.betting.call(BettingAPI.clearSlip, token: ann.accessToken)))
            #expect(current.selections.isEmpty && current.stake == nil)
        }
    }

    @Test(
        "A ticket debits the stake once per Idempotency-Key: a repeat answers the same ticket, another body is refused",
        arguments: TestStore.all)
    func idempotentPlacement(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let ann = try await h.player()
            let derby = try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00"))
            let cup = try await h.fixture("Kalju", "Narva", odds: ("2.25", "3.30", "2.50"))
            let request = PlaceTicket(stake: 1000, selections: [derby.pick(.home), cup.pick(.home)])

            let missingKey = try await h.place(request, as: ann, key: nil)
            #expect(missingKey.status == 428 && missingKey.problemCode == "IDEMPOTENCY_KEY_REQUIRED")
            let first = try await expect(201, h.place(request, as: ann, key: "slip-1")).decode(Ticket.self)
            #expect(first.status == .open && first.totalOdds == Odds("3.375") && first.potentialWinnings == 3375)
            #expect(first.selections.map(\.result) == [.open, .open] && first.selections.first?.home == "Flora")
            let again = try await expect(201, h.place(request, as: ann, key: "slip-1")).decode(Ticket.self)
            #expect(again == first)
            let other = try await h.place(PlaceTicket(stake: 500, selections: request.selections), as: ann, key: "slip-1")
            #expect(other.status == 422 && other.problemCode == "VALIDATION_FAILED")
            #expect(try await h.wallet(ann).balance == 9000)

            // Ten concurrent attempts with one new key: one ticket, one debit.
            let answers = try await withThrowingTaskGroup(of: TicketID?.self) { group in
                for _ in 0..<10 {
                    group.addTask { try? await h.place(request, as: ann, key: "slip-2").decode(Ticket.self).id }
                }
                return try await group.reduce(into: [TicketID?]()) { $0.append($1) }
            }
            #expect(Set(answers.compactMap { $0 }).count == 1 && answers.allSatisfy { $0 != nil })
            #expect(try await h.wallet(ann).balance == 8000)
            let mine = try await expect(200, h.betting.call(BettingAPI.tickets, token: ann.accessToken)).decode(Page<Ticket>.self)
            #expect(mine.items.count == 2 && mine.items.last?.id == first.id)

            // Another player sees neither ticket.
            let bob = try await h.player("Bob")
            #expect(try await h.betting.call(BettingAPI.ticket, first.id, token: bob.accessToken).status == 404)
            #expect(
                try await expect(200, h.betting.call(BettingAPI.tickets, token: bob.accessToken)).decode(Page<Ticket>.self).items.isEmpty)
        }
    }

    @Test(
        "A player's first tickets sent at once are all placed: the wallet opens under them, and none is refused for funds",
        arguments: TestStore.all)
    func firstTicketsAtOnce(store: TestStore) async throws {
        try await BettingHarness.with(store: store) { h in
            let derby = try await h.fixture("Flora", "Levadia")
            let request = PlaceTicket(stake: 100, selections: [derby.pick(.home)])
            // The wallet is opened by whichever first ticket gets there first; the others must debit
            // it once it is there, not take it for an empty one.
            for round in 0..<6 {
                let player = try await h.player("First \(round)")
                let answers = try await withThrowingTaskGroup(of: String.self) { group in
                    for attempt in 0..<8 {
                        group.addTask {
                            let answer = try await h.place(request, as: player, key: "first-\(attempt)")
                            return "\(answer.status) \(answer.problemCode ?? "")"
                        }
                    }
                    return try await group.reduce(into: [String]()) { $0.append($1) }
                }
                #expect(answers == Array(repeating: "201 ", count: 8))
                #expect(try await h.wallet(player).balance == 10_000 - 8 * 100)
            }
        }
    }

    @Test(
        "Refusals: odds that moved (better ones taken on request), a started fixture, funds, duplicates, limits — also when the instance prices from fixtures it read before they changed",
        arguments: TestStore.all)
    func refusals(store: TestStore) async throws {
        // Fixtures once read are reused for a minute: every change below reaches the store while
        // betting still prices from what it read, and the placing statement must catch each one.
        try await BettingHarness.with(store: store, config: ["betting.fixtures.reuse.ms": "60000"]) { h in
            let ann = try await h.player()
            let derby = try await h.fixture("Flora", "Levadia", odds: ("1.50", "3.10", "4.00"))
            let seen = derby.pick(.home)
            _ = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [seen]), as: ann))

            _ = try await h.setOdds(derby, "1.60", "3.10", "3.80")
            let moved = try await h.place(PlaceTicket(stake: 1000, selections: [seen]), as: ann)
            #expect(moved.status == 409)
            let changes = try moved.decode(OddsChanged.self)
            #expect(changes.code == "ODDS_CHANGED" && changes.changes == [.init(fixtureId: derby.id, pick: .home, odds: Odds("1.60"))])
            let better = try await expect(201, h.place(PlaceTicket(stake: 1000, selections: [seen], acceptBetterOdds: true), as: ann))
            #expect(try better.decode(Ticket.self).selections.first?.odds == Odds("1.60"))
            let worse = try await h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.away)], acceptBetterOdds: true), as: ann)
            #expect(try worse.status == 409 && worse.decode(OddsChanged.self).changes.first?.odds == Odds("3.80"))

            let duplicate = try await h.place(
                PlaceTicket(stake: 1000, selections: [derby.pick(.draw), derby.pick(.draw)]), as: ann)
            #expect(duplicate.status == 422 && duplicate.problemCode == "DUPLICATE_SELECTION")
            let others = [try await h.fixture("A", "B"), try await h.fixture("C", "D"), try await h.fixture("E", "F")]
            let four = try await h.place(PlaceTicket(stake: 1000, selections: [derby.pick(.draw)] + others.map { $0.pick(.home) }), as: ann)
            #expect(four.status == 422 && four.problemCode == "TOO_MANY_SELECTIONS")
            for stake in [0, 99, 5001] {
                let refused = try await h.place(PlaceTicket(stake: stake, selections: [derby.pick(.draw)]), as: ann)
                #expect(refused.status == 422 && refused.problemCode == "STAKE_OUT_OF_RANGE")
            }
            let unknown = try await h.place(
                PlaceTicket(stake: 1000, selections: [TicketPick(fixtureId: MatchID(), pick: .home, odds: Odds("2")!)]), as: ann)
            #expect(try unknown.status == 422 && unknown.decode(Problem.self).errors?.first?.field == "selections[0].fixtureId")

            // 8,000 left: 5,000 then 3,000 fit, the next does not, and leaves nothing behind.
            _ = try await expect(201, h.place(PlaceTicket(stake: 5000, selections: [others[0].pick(.home)]), as: ann))
            _ = try await expect(201, h.place(PlaceTicket(stake: 3000, selections: [derby.pick(.draw), others[1].pick(.home)]), as: ann))
            let broke = try await h.place(PlaceTicket(stake: 100, selections: [others[2].pick(.home)]), as: ann)
            #expect(broke.status == 422 && broke.problemCode == "INSUFFICIENT_FUNDS")
            #expect(try await h.wallet(ann).balance == 0)
            let placed = try await expect(200, h.betting.call(BettingAPI.tickets, token: ann.accessToken)).decode(Page<Ticket>.self)
            #expect(placed.items.count == 4)

            try await h.finish(derby, status: .firstHalf, regularTime: nil)
            _ = try await h.waitFor(derby.id) { !$0.open }
            let started = try await h.place(PlaceTicket(stake: 100, selections: [derby.pick(.draw)]), as: try await h.player())
            #expect(started.status == 422 && started.problemCode == "FIXTURE_STARTED")
            let stillOpen = try await h.place(PlaceTicket(stake: 100, selections: [others[2].pick(.home)]), as: try await h.player())
            #expect(stillOpen.status == 201)
        }
    }
}
