public import Contracts
public import Foundation

/// Reading and writing where the signal does not reach (README, "Offline"): `read` answers from what
/// was kept when the server cannot be reached, `queue` keeps a write until it can be sent.
extension HuddleClient {
    /// Reads an operation as `send` does, keeping the answer in `keptReads`: online, a kept copy is
    /// asked for again with its `ETag` (a 304 answers it without a body); when the server cannot be
    /// reached (no answer, or the gateway's 502/503/504), the kept copy is answered, marked stale,
    /// at once — a phone in a forest does not wait through retries for a course it read an hour ago.
    public func read<Access, Output>(
        _ endpoint: Endpoint<Access, NoBody, Output>, _ path: any CustomStringConvertible..., query: QueryItems = QueryItems()
    ) async throws -> Kept<Output> {
        let operation = endpoint.operation, values = path.map(\.description)
        let key = "\(await currentUser?.id.description ?? "anyone") \(try url(operation, values, query).absoluteString)"
        let kept = await keptReads?.entry(key)
        let response: HTTPResponse
        do {
            response = try await perform(operation, values, query, body: nil, ifNoneMatch: kept?.etag, retrying: kept == nil)
        } catch let error as HuddleError where error.kind == .unreachable || [502, 503, 504].contains(error.status) {
            guard let kept else { throw error }
            return Kept(
                value: try decode(Output.self, from: HTTPResponse(status: 200, headers: [:], body: kept.body)), isStale: true,
                savedAt: kept.savedAt)
        }
        let now = self.now()
        if response.status == 304, let kept {
            await keptReads?.confirm(key, at: now)
            return Kept(
                value: try decode(Output.self, from: HTTPResponse(status: 200, headers: [:], body: kept.body)), isStale: false, savedAt: now
            )
        }
        let value = try decode(Output.self, from: response)
        await keptReads?.keep(key, etag: response.headers["etag"], body: response.body, at: now)
        return Kept(value: value, isStale: false, savedAt: now)
    }

    /// Queues a write (a score, a roster answer, a chat message, a read marker) and sends the queue at
    /// once if the server can be reached; otherwise it waits, kept across restarts, for
    /// `sendQueuedWrites`. What the server does with it arrives as that call's outcomes. A write
    /// that needs its answer at once (a bet, a purchase) is refused with `.onlineOnly`.
    @discardableResult
    public func queue<Body: Encodable, Output>(
        _ endpoint: Endpoint<SignedIn, Body, Output>, _ path: any CustomStringConvertible..., body: Body
    ) async throws -> QueuedWrite {
        try await enqueue(endpoint.operation, path.map(\.description), body: try encoded(body))
    }

    /// Queues a write without a body (clearing a score).
    @discardableResult
    public func queue<Output>(_ endpoint: Endpoint<SignedIn, NoBody, Output>, _ path: any CustomStringConvertible...) async throws
        -> QueuedWrite
    {
        try await enqueue(endpoint.operation, path.map(\.description), body: nil)
    }

    /// Sends the queued writes in the order they were made, each with what makes a repeat harmless,
    /// and answers what became of those the server answered. It stops at the first the server cannot
    /// be reached for (or answers 5xx or 429), keeping it and those after it for the next call; a
    /// write refused for good (4xx) is taken out and reported, not retried. Call it when the
    /// network comes back (from the app's path monitor) and when the app starts.
    public func sendQueuedWrites() async -> [QueuedWriteOutcome] {
        guard let queuedWrites, await queuedWrites.startSending() else { return [] }
        var outcomes: [QueuedWriteOutcome] = []
        for write in await queuedWrites.pending {
            guard let operation = QueuedWrites.queueable[write.operation] else {
                await queuedWrites.remove(write.id)
                continue
            }
            do {
                let response = try await perform(
                    operation, write.path, QueryItems(), body: write.body, idempotencyKey: write.idempotencyKey, retrying: false)
                await queuedWrites.remove(write.id)
                outcomes.append(.sent(write, answer: response.body))
            } catch let error as HuddleError {
                let later =
                    [.unreachable, .notSignedIn, .sessionEnded].contains(error.kind) || (error.status ?? 0) >= 500 || error.status == 429
                if later { break }
                await queuedWrites.remove(write.id)
                outcomes.append(.refused(write, error))
            } catch {
                break
            }
        }
        await queuedWrites.stopSending()
        return outcomes
    }

    private func enqueue(_ operation: APIOperation, _ path: [String], body: Data?) async throws -> QueuedWrite {
        guard QueuedWrites.queueable[operation.name] != nil, let queuedWrites else { throw HuddleError(kind: .onlineOnly) }
        let write = QueuedWrite(
            id: UUID(), operation: operation.name, path: path, body: body,
            idempotencyKey: operation.acceptsIdempotencyKey ? UUID().uuidString : nil, queuedAt: now())
        await queuedWrites.append(write)
        _ = await sendQueuedWrites()
        return write
    }
}
