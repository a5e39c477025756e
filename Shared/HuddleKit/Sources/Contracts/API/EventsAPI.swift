/// `POST /internal/events`, which every module that consumes events answers, and
/// `GET /internal/events/{id}`, whether it has applied one.
public enum EventsAPI {
    public static func deliver(to consumer: ServiceModule) -> Endpoint<InternalCaller, EventBatch, NoContent> {
        Endpoint(.post, "/internal/events", owner: consumer, summary: "Apply a batch of events once each (an inbox drops repeats)")
    }

    /// 404 until the module has applied the event: how auth follows an account deletion.
    public static func applied(by consumer: ServiceModule) -> Endpoint<InternalCaller, NoBody, AppliedEvent> {
        Endpoint(.get, "/internal/events/{id}", owner: consumer, summary: "Whether this module has applied an event, and when")
    }
}

/// `GET /internal/users/{id}/personal-data`, which every module holding players' data answers for
/// their exports: the modules that erase a deleted account's data (`auth.user.deleted`'s consumers).
public enum PersonalDataAPI {
    public static func export(of module: ServiceModule) -> Endpoint<InternalCaller, NoBody, PersonalData> {
        Endpoint(.get, "/internal/users/{id}/personal-data", owner: module, summary: "What this module holds of a player, for their export")
    }
}
