public import Contracts

extension AuthAPI {
    /// What other modules call.
    public enum Internal {
        public static let revokedSessions = Endpoint<InternalCaller, NoBody, RevokedSessions>(
            .get, "/internal/sessions/revoked", owner: .auth, summary: "Sessions revoked after a cursor, for token verifiers",
            query: [revokedAfter])
        /// `?after=`: the cursor of the previous answer, 0 for the first.
        public static let revokedAfter = Query.defaulted(
            "after", .integer, fallback: Int64(0), description: "the cursor of the previous answer", parse: { Int64($0) },
            text: String.init)
        public static let profiles = Endpoint<InternalCaller, ProfilesRequest, ProfilesResponse>(
            .post, "/internal/users/profiles", owner: .auth, summary: "Public profiles of up to 1000 users; unknown ids are left out")
        public static let profileSnapshot = Endpoint<InternalCaller, NoBody, Page<PublicProfile>>(
            .get, "/internal/snapshots/profiles", owner: .auth, summary: "Every profile, page by page, for a read model",
            query: Query.paging)

        public static let all: [APIOperation] =
            [
                revokedSessions.operation, profiles.operation, profileSnapshot.operation,
                ModerationAPI.Internal.subject(at: .auth).operation,
                EventsAPI.deliver(to: .auth).operation, EventsAPI.applied(by: .auth).operation,
            ] + EventsAPI.publisherOperations(of: .auth)
    }
}
