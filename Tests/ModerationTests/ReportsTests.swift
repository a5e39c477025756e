import Contracts
import Foundation
import ServiceKitTesting
import Testing

/// Moderation on its own port, with the modules whose subjects it reads: reports become one case per
/// subject, which only moderators see and decide.
@Suite("Reports and cases")
struct ReportsTests {
    @Test("two players' reports of a team make one case with both, which a moderator sees and a player does not", arguments: TestStore.all)
    func reportsMakeOneCase(store: TestStore) async throws {
        try await ModerationHarness.with(store: store) { h in
            let owner = try await h.player("Rough Owner"), ann = try await h.player("Ann"), ben = try await h.player("Ben")
            let team = try await h.team(by: owner)
            let first = try expect(201, try await h.report(team, by: ann)).decode(Report.self)
            // The same subject again answers the first report.
            let again = try expect(200, try await h.report(team, by: ann, reason: .spam)).decode(Report.self)
            #expect(again.id == first.id)
            _ = try expect(201, try await h.report(team, by: ben, reason: .spam))

            try expect(403, try await h.moderation.call(ModerationAPI.cases, token: ann.accessToken))
            let admin = try await h.admin()
            let cases = try await h.moderation.value(ModerationAPI.cases, token: admin.accessToken).items
            #expect(cases.count == 1)
            let only = try #require(cases.first)
            #expect(only.subject == ReportSubject(type: .team, id: SubjectID(team.id.uuid)))
            #expect(only.reportCount == 2)
            #expect(Set(only.reasons) == [.harassment, .spam])
            #expect(only.content.ownerId == owner.user.id)

            let mine = try await h.moderation.value(ModerationAPI.myReports, token: ann.accessToken).items
            #expect(mine.map(\.id) == [first.id])
        }
    }

    @Test("a subject the reporter cannot see is 404, and nothing is recorded")
    func unseenSubjectIsNotFound() async throws {
        try await ModerationHarness.with { h in
            let ann = try await h.player("Ann")
            let missing = ReportRequest(subject: .init(type: .team, id: SubjectID(UUID())), reason: .spam)
            try expect(404, try await h.moderation.call(ModerationAPI.report, body: missing, token: ann.accessToken))
            #expect(try await h.moderation.value(ModerationAPI.myReports, token: ann.accessToken).items.isEmpty)
        }
    }
}
