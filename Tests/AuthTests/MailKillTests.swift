import Contracts
import Foundation
import HuddleEffects
import ProviderStandIns
import SQLKit
import ServiceFeatures
import ServiceKitTesting
import ServiceStore
import Testing

/// Two `auth` replicas share one PostgreSQL and send a queue of mail through the stand-in's relay,
/// and both are killed with SIGKILL while the sender is in the middle of it, three times. Afterwards
/// every mail is marked sent and reached the relay whole; a mail arrives twice only where the relay
/// had taken it and the killed sender had not yet recorded that (at most one per kill and session,
/// since one instance sends one mail at a time in each of its `MailDelivery.sessions`), and the
/// repeat carries the same `Message-ID`, so a mail reader shows it once.
///
/// It runs when `HUDDLE_KILL_TESTS=1` (`.ci/run` runs the kill tests on their own after the suite).
@Suite("Mail survives SIGKILL", .serialized)
struct MailKillTests {
    static let enabled =
        TestStore.postgresURL != nil && ServiceProcess.isBuilt("auth") && ProcessInfo.processInfo.environment["HUDDLE_KILL_TESTS"] == "1"
    static let mails = 300
    static let kills = 3

    @Test(
        "a queue of mail sent while both replicas are killed mid-send: each mail arrives whole, a repeat only per kill",
        .enabled(if: enabled))
    func survivesKills() async throws {
        let url = try await TestStore.postgres.freshDatabaseURL()
        try await withMailStandIn { mailSettings, standInURL in
            var settings = mailSettings.merging(["auth.db.url": url, "auth.db.pool": "4", "mail.lease.ms": "1000", "log.level": "critical"])
            { _, new in new }
            for module in ServiceModule.allCases where module != .auth { settings["\(module.rawValue).url"] = "http://127.0.0.1:1" }
            // No relay until the queue is full, so the replicas start sending together once they come back.
            var withoutRelay = settings
            withoutRelay.removeValue(forKey: "mail.smtp.url")
            let migrator = try ServiceProcess("auth", settings: withoutRelay)
            try await migrator.start()
            await migrator.stop()
            let database = try await Database.open(url: url, now: Effects.system.now, logger: .quiet("mail-kill-test"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await database.run() }
                defer { group.cancelAll() }
                let queued = try await queue(on: database)
                let replicas = try [ServiceProcess("auth", settings: settings), ServiceProcess("auth", settings: settings)]
                do {
                    for replica in replicas { try await replica.start() }
                    try await killWhileSending(replicas, database: database)
                    let finished = try await eventually(within: .seconds(90), every: .milliseconds(100)) {
                        try await count("sent_at IS NOT NULL", in: database) == Self.mails
                    }
                    #expect(finished, "mail still queued after the last kill")
                } catch {
                    for replica in replicas { await replica.kill() }
                    throw error
                }
                for replica in replicas { await replica.stop() }
                try await check(queued, relay: TestClient(baseURL: standInURL), database: database)
            }
        }
    }

    /// One mail to each of `mails` players; returns each mail's text by recipient.
    private func queue(on database: Database) async throws -> [String: String] {
        let doorbell = Doorbell(channel: "mail_queue", database: database, logger: .quiet("mail-kill-test"))
        let queue = MailQueue(sender: MailAddress("no-reply@huddle.dev", name: "Huddle"), queued: doorbell, now: Effects.system.now)
        let texts = Dictionary(uniqueKeysWithValues: (0..<Self.mails).map { ("player\($0)@example.com", "Mail \($0): \(UUID())") })
        try await database.transaction { sql in
            for (address, text) in texts.sorted(by: { $0.key < $1.key }) {
                try await queue.enqueue(MailContent(subject: "Kill test", text: text, html: nil), to: MailAddress(address), on: sql)
            }
        }
        return texts
    }

    /// Waits until a few mails have gone since the last start, then kills both replicas a moment
    /// later (the one holding the `mail` lease is then mid-send) and starts them again.
    private func killWhileSending(_ replicas: [ServiceProcess], database: Database) async throws {
        for _ in 0..<Self.kills {
            let before = try await count("sent_at IS NOT NULL", in: database)
            let sending = try await eventually(within: .seconds(30), every: .milliseconds(5)) {
                try await count("sent_at IS NOT NULL", in: database) >= before + 5
            }
            try #require(sending, "no mail went out after a start")
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...30)))
            for replica in replicas { await replica.kill() }
            #expect(try await count("sent_at IS NULL", in: database) > 0, "the queue was empty at a kill")
            for replica in replicas { try await replica.start() }
        }
    }

    private func count(_ condition: String, in database: Database) async throws -> Int {
        try await database.read { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM mail_queue WHERE \(unsafeRaw: condition)").first()?.decode(
                column: "n", as: Int.self)
                ?? 0
        }
    }

    private func check(_ queued: [String: String], relay: TestClient, database: Database) async throws {
        #expect(try await count("failed_at IS NOT NULL", in: database) == 0)
        let received = try await relay.mails(to: nil)
        let byRecipient = Dictionary(grouping: received) { $0.to.first ?? "" }
        #expect(Set(byRecipient.keys) == Set(queued.keys))
        var repeated = 0
        for (address, text) in queued {
            let copies = byRecipient[address] ?? []
            #expect(copies.allSatisfy { $0.text == text }, "\(address) got a mail that is not the one queued")
            #expect(Set(copies.map(\.messageId)).count == 1, "\(address)'s copies have different Message-IDs")
            repeated += max(0, copies.count - 1)
        }
        #expect(repeated <= Self.kills * MailDelivery.sessions)
        print(
            "mail kill test: \(queued.count) mails, \(Self.kills) kills of both replicas mid-send, \(repeated) delivered twice (same Message-ID)"
        )
    }
}
