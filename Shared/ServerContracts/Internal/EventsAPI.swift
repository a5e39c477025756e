public import Contracts

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

    /// The events a publisher's subscribers refused too often, set aside while the stream went on;
    /// for the module's operator, who calls with the module's own key.
    public static func deadLetters(of publisher: ServiceModule) -> Endpoint<InternalCaller, NoBody, DeadLetters> {
        Endpoint(
            .get, "/internal/events/dead-letters", owner: publisher,
            summary: "Events a subscriber refused too often, with the error, set aside while the stream went on")
    }

    /// Sends a parked event again to each subscriber it was parked for; 204 once every one took it,
    /// 409 naming the error when one refused it again (it stays parked), 503 when one is unreachable.
    public static func replay(of publisher: ServiceModule) -> Endpoint<InternalCaller, NoBody, NoContent> {
        Endpoint(
            .post, "/internal/events/dead-letters/{id}/replay", owner: publisher,
            summary: "Send a parked event again to the subscribers that refused it; it leaves the dead letters once taken",
            otherAnswers: [409: Problem.self])
    }

    /// Both of a publisher's dead-letter operations.
    public static func publisherOperations(of publisher: ServiceModule) -> [APIOperation] {
        [deadLetters(of: publisher).operation, replay(of: publisher).operation]
    }
}

/// `GET /internal/users/{id}/personal-data`, which every module holding players' data answers for
/// their exports: the modules that erase a deleted account's data (`auth.user.deleted`'s consumers).
public enum PersonalDataAPI {
    public static func export(of module: ServiceModule) -> Endpoint<InternalCaller, NoBody, PersonalData> {
        Endpoint(.get, "/internal/users/{id}/personal-data", owner: module, summary: "What this module holds of a player, for their export")
    }
}
