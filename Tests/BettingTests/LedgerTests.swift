import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceKitTesting
import ServiceStore
import Testing

@testable import BettingService

/// The ledger's rules on the store itself: what a transfer may do to a wallet, and what a repeat of
/// a transfer id means (TigerBeetle's: the same transfer is already done, another one is an error).
@Suite("Double-entry ledger")
struct LedgerTests {
    static let logger = Logger.quiet("ledger-test")

    let ledger = Ledger()
    let at = Date(timeIntervalSince1970: 1_800_000_000)

    /// A migrated betting store with the house and grants accounts of EUR and one wallet granted 1,000.
    private func withLedger(_ store: TestStore, body: (Database, UserID) async throws -> Void) async throws {
        try await store.withDatabase(logger: Self.logger) { database in
            try await database.migrate(BettingMigrations.all, logger: Self.logger)
            let user = UserID()
            try await database.transaction { sql in
                for account in [LedgerAccount.house(currency: "EUR"), .grants(currency: "EUR"), .wallet(user)] {
                    try await ledger.open(account, currency: "EUR", at: at, on: sql)
                }
                try await ledger.post(grant(to: user, 1000), at: at, on: sql)
            }
            try await body(database, user)
            let check = try await database.read { sql in try await ledger.check(on: sql) }
            #expect(check.holds, "\(check)")
        }
    }

    private func grant(to user: UserID, _ amount: Int, id: UUID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!) -> Transfer {
        Transfer(id: id, debit: .grants(currency: "EUR"), credit: .wallet(user), amount: amount, kind: .grant, ticket: nil)
    }

    private func stake(from user: UserID, _ amount: Int, id: UUID = UUID()) -> Transfer {
        Transfer(id: id, debit: .wallet(user), credit: .house(currency: "EUR"), amount: amount, kind: .stake, ticket: nil)
    }

    private func balances(_ user: UserID, on database: Database) async throws -> [Int?] {
        try await database.read { sql in
            [
                try await ledger.balance(of: .wallet(user), on: sql), try await ledger.balance(of: .house(currency: "EUR"), on: sql),
                try await ledger.balance(of: .grants(currency: "EUR"), on: sql),
            ]
        }
    }

    @Test("Balances are what the transfers say, and every account sums to zero", arguments: TestStore.all)
    func balancesFollowTransfers(store: TestStore) async throws {
        try await withLedger(store) { database, user in
            try await database.transaction { sql in
                try await ledger.post(stake(from: user, 300), at: at, on: sql)
                try await ledger.post(stake(from: user, 200), at: at, on: sql)
            }
            #expect(try await balances(user, on: database) == [500, 500, -1000])
            let check = try await database.read { sql in try await ledger.check(on: sql) }
            #expect(check.sumOfBalances == 0 && check.transfers == 3 && check.accounts == 3)
        }
    }

    @Test(
        "A repeat of a posted transfer is already done and moves nothing; another transfer under its id is refused",
        arguments: TestStore.all)
    func transferIDsPostOnce(store: TestStore) async throws {
        try await withLedger(store) { database, user in
            let first = stake(from: user, 400)
            let posting = try await database.transaction { sql in try await ledger.post(first, at: at, on: sql) }
            #expect(posting == .posted)
            let repeated = try await database.transaction { sql in try await ledger.post(first, at: at, on: sql) }
            #expect(repeated == .alreadyPosted)
            #expect(try await balances(user, on: database) == [600, 400, -1000])
            // The grant repeated (a credit) is already done too.
            #expect(
                try await database.transaction { sql in try await ledger.post(grant(to: user, 1000), at: at, on: sql) } == .alreadyPosted)
            await #expect(throws: LedgerRefusal.existsWithDifferentFields(first.id)) {
                try await database.transaction { sql in try await ledger.post(stake(from: user, 401, id: first.id), at: at, on: sql) }
            }
            await #expect(throws: LedgerRefusal.existsWithDifferentFields(first.id)) {
                try await database.transaction { sql in try await ledger.post(grant(to: user, 400, id: first.id), at: at, on: sql) }
            }
            #expect(try await balances(user, on: database) == [600, 400, -1000])
        }
    }

    @Test(
        "A wallet never goes below zero, a repeat of a posted debit is done even when the wallet is empty now, and a wallet never opened is named",
        arguments: TestStore.all)
    func walletFloor(store: TestStore) async throws {
        try await withLedger(store) { database, user in
            await #expect(throws: LedgerRefusal.insufficientFunds) {
                try await database.transaction { sql in try await ledger.post(stake(from: user, 1001), at: at, on: sql) }
            }
            let all = stake(from: user, 1000)
            try await database.transaction { sql in try await ledger.post(all, at: at, on: sql) }
            #expect(try await database.transaction { sql in try await ledger.post(all, at: at, on: sql) } == .alreadyPosted)
            await #expect(throws: LedgerRefusal.insufficientFunds) {
                try await database.transaction { sql in try await ledger.post(stake(from: user, 1), at: at, on: sql) }
            }
            let stranger = UserID()
            await #expect(throws: LedgerRefusal.noSuchAccount(LedgerAccount.wallet(stranger).id)) {
                try await database.transaction { sql in try await ledger.post(stake(from: stranger, 1), at: at, on: sql) }
            }
            await #expect(throws: LedgerRefusal.noSuchAccount(LedgerAccount.wallet(stranger).id)) {
                try await database.transaction { sql in try await ledger.post(grant(to: stranger, 1, id: UUID()), at: at, on: sql) }
            }
            #expect(try await balances(user, on: database) == [0, 1000, -1000])
            let check = try await database.read { sql in try await ledger.check(on: sql) }
            #expect(check.transfers == 2)
        }
    }

    @Test("The consistency check finds a wallet whose totals left its transfers", arguments: TestStore.all)
    func checkFindsDrift(store: TestStore) async throws {
        // Not through `withLedger`: its closing check would (rightly) fail.
        try await store.withDatabase(logger: Self.logger) { database in
            try await database.migrate(BettingMigrations.all, logger: Self.logger)
            let user = UserID()
            try await database.transaction { sql in
                for account in [LedgerAccount.grants(currency: "EUR"), .wallet(user)] {
                    try await ledger.open(account, currency: "EUR", at: at, on: sql)
                }
                try await ledger.post(grant(to: user, 1000), at: at, on: sql)
                try await sql.raw("UPDATE accounts SET credits = credits + 5 WHERE kind = 'wallet'").run()
            }
            let check = try await database.read { sql in try await ledger.check(on: sql) }
            #expect(!check.holds && check.accountsOutOfStep == 1 && check.sumOfBalances == 5)
        }
    }
}
