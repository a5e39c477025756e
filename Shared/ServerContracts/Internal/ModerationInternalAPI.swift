public import Contracts

extension ModerationAPI {
    public enum Internal {
        /// What the module that holds a subject answers moderation: the subject as `viewer` sees it, or
        /// 404 when they cannot (so nobody reports what they cannot see).
        public static func subject(at owner: ServiceModule) -> Endpoint<InternalCaller, NoBody, SubjectSnapshot> {
            Endpoint(
                .get, "/internal/moderation/subjects/{type}/{id}", owner: owner,
                summary: "A subject as a player sees it, for a report; 404 when they cannot see it",
                query: [viewer],
                pathParameters: ["type": .oneOf(SubjectType.allCases.filter { $0.owner == owner }.map(\.rawValue))])
        }
        /// `?viewer=`: the player who reports.
        public static let viewer = Query.required(
            "viewer", .uuid, description: "the player who reports", parse: UserID.init, text: \.description)

        public static let all: [APIOperation] =
            [
                EventsAPI.deliver(to: .moderation).operation, EventsAPI.applied(by: .moderation).operation,
                PersonalDataAPI.export(of: .moderation).operation,
            ] + EventsAPI.publisherOperations(of: .moderation)
    }
}
