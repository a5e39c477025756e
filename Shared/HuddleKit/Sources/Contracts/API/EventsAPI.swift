/// `POST /internal/events`, which every module that consumes events answers.
public enum EventsAPI {
    public static func deliver(to consumer: ServiceModule) -> Endpoint<InternalCaller, EventBatch, NoContent> {
        Endpoint(.post, "/internal/events", owner: consumer, summary: "Apply a batch of events once each (an inbox drops repeats)")
    }
}
