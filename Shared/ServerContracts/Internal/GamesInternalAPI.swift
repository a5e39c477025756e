public import Contracts

extension GamesAPI {
    public enum Internal {
        public static let gameSnapshot = Endpoint<InternalCaller, NoBody, Page<Game>>(
            .get, "/internal/snapshots/games", owner: .games, summary: "Every upcoming game, page by page", query: Query.paging)

        public static let all: [APIOperation] =
            [
                gameSnapshot.operation, EventsAPI.deliver(to: .games).operation, EventsAPI.applied(by: .games).operation,
                PersonalDataAPI.export(of: .games).operation, ModerationAPI.Internal.subject(at: .games).operation,
            ] + EventsAPI.publisherOperations(of: .games)
    }
}
