import Contracts
import SQLKit
import ServiceFeatures

/// What betting holds of a player, for their export: the wallet with every transfer in or out of it,
/// the tickets with their legs, and the slip. Amounts are in minor units and odds in thousandths, as
/// the ledger keeps them.
enum BettingPersonalData {
    static let export = PersonalDataExport([
        PersonalDataSection(
            "wallet", columns: [.text("account_id"), .text("currency"), .integer("balance"), .time("created_at")]
        ) { user in
            """
            SELECT id AS account_id, currency, credits - debits AS balance, created_at FROM accounts
            WHERE kind = 'wallet' AND user_id = \(bind: user.description)
            """
        },
        PersonalDataSection(
            "transfers",
            columns: [.text("transfer_id"), .text("kind"), .text("direction"), .integer("amount"), .text("ticket_id"), .time("created_at")]
        ) { user in
            """
            SELECT t.id AS transfer_id, t.kind, CASE WHEN t.credit_account = a.id THEN 'in' ELSE 'out' END AS direction, t.amount,
            t.ticket_id, t.created_at FROM transfers t JOIN accounts a ON a.id = t.credit_account OR a.id = t.debit_account
            WHERE a.kind = 'wallet' AND a.user_id = \(bind: user.description) ORDER BY t.created_at, t.id
            """
        },
        PersonalDataSection(
            "tickets",
            columns: [
                .text("ticket_id"), .text("status"), .integer("stake"), .text("currency"), .integer("total_odds_thousandths"),
                .integer("potential_winnings"), .integer("payout"), .time("placed_at"), .time("settled_at"),
            ]
        ) { user in
            """
            SELECT id AS ticket_id, status, stake, currency, total_odds AS total_odds_thousandths, potential_winnings, payout,
            placed_at, settled_at FROM tickets WHERE user_id = \(bind: user.description) ORDER BY placed_at, id
            """
        },
        PersonalDataSection(
            "ticketLegs",
            columns: [
                .text("ticket_id"), .integer("position"), .text("fixture_id"), .text("home"), .text("away"), .text("pick"),
                .integer("odds_thousandths"), .text("result"),
            ]
        ) { user in
            """
            SELECT l.ticket_id, l.position, l.fixture_id, l.home, l.away, l.pick, l.odds AS odds_thousandths, l.result
            FROM ticket_legs l JOIN tickets t ON t.id = l.ticket_id WHERE t.user_id = \(bind: user.description)
            ORDER BY t.placed_at, l.ticket_id, l.position
            """
        },
        PersonalDataSection("slip", columns: [.text("fixture_id"), .text("pick"), .time("added_at")]) { user in
            "SELECT fixture_id, pick, added_at FROM slip_selections WHERE user_id = \(bind: user.description) ORDER BY added_at"
        },
    ])
}
