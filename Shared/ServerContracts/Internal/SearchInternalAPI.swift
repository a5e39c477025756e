public import Contracts

extension SearchAPI {
    public enum Internal {
        public static let reindex = Endpoint<InternalCaller, NoBody, ReindexResult>(
            .post, "/internal/reindex", owner: .search, summary: "Rebuild the read model from the owners' snapshots",
            problems: [.dependencyUnavailable])

        public static let all: [APIOperation] = [
            reindex.operation, EventsAPI.deliver(to: .search).operation, EventsAPI.applied(by: .search).operation,
            PersonalDataAPI.export(of: .search).operation,
        ]
    }
}
