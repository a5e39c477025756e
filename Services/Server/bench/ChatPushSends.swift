import ArgumentParser
import Contracts
import Foundation
import ServiceHTTP
import ServiceKitTesting

/// `huddle-bench chatpush-sends`: the send path of `chatpush --apart`, timed from a process of its
/// own on chat's core, so the stand-in taking the pushes on the other core does not delay the timing.
/// Prints each send's time in milliseconds, one a line.
struct ChatPushSends: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chatpush-sends", abstract: "The timed sends of chatpush --apart (started by it).", shouldDisplay: false)

    @Option(help: "Messages to send.") var sends = 400
    @Option(help: "Messages a second.") var rate = 20
    @Option(help: "The sender's access token.") var token: String
    @Option(help: "The rooms to send to, in turn, comma-separated.") var rooms: String

    func run() async throws {
        let rooms = self.rooms.split(separator: ",").compactMap { RoomID(String($0)) }
        guard !rooms.isEmpty else { throw ValidationError("--rooms names no room") }
        for time in try await Self.times(sends: sends, rate: rate, token: token, rooms: rooms) { print(time) }
    }

    /// Each send's time, in milliseconds, sorted; sends go at `rate` a second whatever each takes. The
    /// first `warmUp` of them are not timed: chat has just started, and with pushes on, notify is
    /// taking the events of the messages sent while it was away and pushing each room's first message
    /// of the run (9,000 pushes in the first second). Timing starts in the steady state after, where
    /// each room's held pushes go once every quiet interval.
    static func times(sends: Int, rate: Int, token: String, rooms: [RoomID], warmUp: Duration = .seconds(3)) async throws -> [Double] {
        let untimed = Int(warmUp.seconds * Double(rate))
        let times = try await withThrowingTaskGroup(of: Double?.self) { group in
            let start = ContinuousClock.now
            for index in 0..<(untimed + sends) {
                try await Task.sleep(until: start + .milliseconds(1000 * index / rate))
                group.addTask {
                    let time = try await send("Training moved to 19:00 (\(index))", to: rooms[index % rooms.count], token: token)
                    return index < untimed ? nil : time
                }
            }
            return try await group.reduce(into: [Double]()) { if let time = $1 { $0.append(time) } }
        }
        return times.sorted()
    }

    /// One message's time through chat's API, in milliseconds.
    static func send(_ text: String, to room: RoomID, token: String) async throws -> Double {
        let chat = TestClient(baseURL: "http://127.0.0.1:28086")
        let started = ContinuousClock.now
        let answer = try await chat.call(
            ChatAPI.send, room, body: SendChatMessage(text: text, clientMessageId: UUID().uuidString), token: token)
        guard answer.status == 201 else { throw ValidationError("a send answered \(answer.status)") }
        return (ContinuousClock.now - started).seconds * 1000
    }
}
