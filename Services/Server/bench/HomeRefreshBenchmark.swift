import ArgumentParser
import Contracts
import Foundation
import HuddleEffects
import ServiceKitTesting

/// `huddle-bench home`: the bytes a phone downloads to refresh its home screen — my upcoming games, my
/// rooms and my inbox — when nothing changed, against a full read of the same three. The whole stack
/// runs in one `huddle` process behind its gateway; a manager plans `games` games for `teams` teams a
/// player is in, each game bringing its room and an invitation to the inbox, and says hello in each
/// team's room. The phone first reads the three in full, then asks again with the `ETag`s it kept.
/// Bytes are what arrives: the status line, the headers and the body (no compression is offered).
struct HomeRefreshBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "home", abstract: "Bytes to refresh a phone's home screen when nothing changed, against a full read.")

    @Option(help: "Upcoming games the player is invited to.") var games = 20
    @Option(help: "Teams the games are shared among.") var teams = 3
    @Option(help: "Rounds of a full read and a refresh.") var rounds = 5
    @Option(help: "Fail when a refresh takes more than this percentage of a full read (bytes do not vary with the machine's load).")
    var atMost: Double?

    func run() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("home-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        let server = try ChildProcess.huddle([], settings: ["gateway.http.port=28480", "auth.bcrypt.cost=4"], data: data)
        defer { server.stop() }
        let gateway = TestClient(baseURL: "http://127.0.0.1:28480")
        try await ChildProcess.waitForHealth("http://127.0.0.1:28480")
        let player = try await setUp(gateway)

        let home: [(String, (String?) async throws -> APIClient.Response)] = [
            (
                "my games",
                { try await gateway.call(GamesAPI.myGames, query: Query.mineScope(.mine), token: player, headers: Self.asking($0)) }
            ),
            ("my rooms", { try await gateway.call(ChatAPI.rooms, token: player, headers: Self.asking($0)) }),
            ("my inbox", { try await gateway.call(NotifyAPI.inbox, token: player, headers: Self.asking($0)) }),
        ]
        var fullReads: [Double] = [], refreshes: [Double] = [], shares: [Double] = []
        var parts: [String] = []
        var unsettled = 0
        while fullReads.count < rounds {
            var full = 0, refresh = 0, changed = false
            parts = []
            for (name, read) in home {
                let fresh = try await read(nil)
                guard fresh.status == 200, let tag = fresh.header("ETag") else { throw ValidationError("\(name) answered \(fresh.status)") }
                let again = try await read(tag)
                full += Self.bytes(fresh)
                refresh += Self.bytes(again)
                changed = changed || again.status != 304
                parts.append("\(name) \(Self.bytes(fresh)) → \(Self.bytes(again))")
            }
            // An event still on its way (a room's last message, a late invitation) changed a list
            // between the two reads: that round is read again once it has arrived.
            if changed {
                unsettled += 1
                guard unsettled < 50 else { throw ValidationError("the home screen kept changing while nothing was done") }
                try await Task.sleep(for: .milliseconds(200))
                continue
            }
            fullReads.append(Double(full))
            refreshes.append(Double(refresh))
            shares.append(Double(refresh) / Double(full) * 100)
        }
        print("home: \(games) games of \(teams) teams; bytes per read, full → unchanged: \(parts.joined(separator: ", "))")
        print(
            "home: full read \(Spread(fullReads, unit: " B", digits: 0)), refresh when unchanged \(Spread(refreshes, unit: " B", digits: 0)): "
                + "\(Spread(shares, unit: " %", digits: 1)) of a full read")
        if let atMost, let worst = shares.max(), worst > atMost {
            throw ValidationError(String(format: "a refresh took %.1f%% of a full read, above %.1f%%", worst, atMost))
        }
    }

    /// A manager, `teams` teams with the player in each, `games` games among them, a message in
    /// each team's room; answers the player's access token once their rooms and inbox hold it all.
    private func setUp(_ gateway: TestClient) async throws -> String {
        let manager = try await gateway.register(name: "Mari Manager"), player = try await gateway.register(name: "Paula Player")
        var teamIDs: [TeamID] = []
        for index in 0..<teams {
            let team = try await gateway.value(
                CatalogAPI.createTeam,
                body: CreateTeamRequest(
                    name: "Home Bench \(index)", sport: .soccer, privacy: .protected, location: Location(lat: 59.43, lng: 24.75),
                    ageGroup: .adult, gender: .coed, skill: .any),
                token: manager.accessToken)
            _ = try await gateway.value(
                CatalogAPI.inviteToTeam, team.id, body: InviteRequest(userIds: [player.user.id]), token: manager.accessToken)
            _ = try await gateway.value(CatalogAPI.joinTeam, team.id, token: player.accessToken)
            teamIDs.append(team.id)
        }
        let start = (Effects.system.now().timeIntervalSince1970 + 86_400).rounded(.down)
        for index in 0..<games {
            _ = try await gateway.value(
                GamesAPI.createGame,
                body: CreateGameRequest(
                    kind: .team, teamId: teamIDs[index % teams], startsAt: Date(timeIntervalSince1970: start + Double(index) * 7_200),
                    description: "Training \(index)"),
                token: manager.accessToken)
        }
        // Rooms and invitations follow from events; the page is full at 20.
        let expectedRooms = min(20, 1 + teams + games), expectedInbox = min(20, games)
        for _ in 0..<600 {
            let rooms = try await gateway.value(ChatAPI.rooms, query: Query.limit(100), token: player.accessToken).items
            let inbox = try await gateway.value(NotifyAPI.inbox, token: player.accessToken).items
            if rooms.count >= expectedRooms, inbox.count >= expectedInbox {
                for room in rooms where room.kind == .team {
                    _ = try await gateway.value(
                        ChatAPI.send, room.id, body: SendChatMessage(text: "See you at training", clientMessageId: UUID().uuidString),
                        token: manager.accessToken)
                }
                return player.accessToken
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("the player's rooms and inbox did not fill within a minute")
    }

    static func asking(_ tag: String?) -> [String: String] { tag.map { ["If-None-Match": $0] } ?? [:] }

    /// The status line, each header line, the blank line and the body, as they cross the wire.
    static func bytes(_ response: APIClient.Response) -> Int {
        let status = "HTTP/1.1 \(response.status) \(response.status == 304 ? "Not Modified" : "OK")\r\n".utf8.count
        return status + response.headers.reduce(2) { $0 + $1.name.utf8.count + 2 + $1.value.utf8.count + 2 } + response.body.count
    }
}
