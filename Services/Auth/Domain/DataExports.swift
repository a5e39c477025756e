import Contracts
import Foundation
import Logging
import SQLKit
import ServerContracts
import ServiceFeatures
import ServiceHTTP
import ServiceStore

/// Players' copies of their data (GDPR Art. 20). A request is a pending row, answered at once; a
/// worker (`ExportWorker`) claims it, gathers auth's part and every personal-data holder's over
/// internal HTTP, and stores the document, kept for `kept`. A holder that is down leaves the export
/// pending, tried again when the claim runs out; a kill mid-way loses nothing, since the claim
/// expires and the row is still pending.
struct DataExports: Sendable {
    let database: Database
    let store: any ExportStore
    let dependencies: ServiceDependencies
    let kept: Duration
    /// Rung when an export is asked for, so the worker starts at once.
    let requested: Doorbell
    let logger: Logger
    let now: @Sendable () -> Date
    /// How long a worker holds an export it gathers before another may take it over.
    static let claim: Duration = .seconds(60)
    static let holderTimeout: Duration = .seconds(20)

    /// The pending export if one is being gathered, otherwise a new one.
    func request(for user: UserID) async throws -> DataExport {
        try await database.transaction { sql in
            // A player has at most one pending export (a unique index): of requests at once from two
            // devices, the later insert writes nothing, and the next turn finds the earlier's export.
            // A turn repeats only when an insert met a pending export, which the next turn reads.
            while true {
                if let pending = try await store.pending(of: user, on: sql) { return pending }
                let requestedAt = now()
                let export = DataExport(id: .timeOrdered(at: requestedAt), status: .pending, requestedAt: requestedAt)
                if try await store.insertUnlessPending(export, of: user, on: sql) {
                    try await requested.ring(on: sql)
                    return export
                }
            }
        }
    }

    /// `id` for its owner; anyone else, or an expired one, gets the same 404.
    func export(_ id: DataExportID, of user: UserID) async throws -> DataExport {
        guard let export = try await database.read({ sql in try await store.export(id, of: user, now: now(), on: sql) }) else {
            throw CommonError.missing(id)
        }
        return export
    }

    /// Gathers pending exports until none is left, then removes the expired ones.
    func gatherPending() async {
        do {
            while let (id, user) = try await database.transaction({ sql in
                try await store.claimPending(now: now(), until: now().addingTimeInterval(Self.claim.seconds), on: sql)
            }) {
                guard let document = await gather(for: user) else { break }
                let readyAt = now()
                let data = try HuddleJSON.encoder.encode(document)
                try await database.transaction { sql in
                    try await store.complete(
                        id, document: data, readyAt: readyAt, expiresAt: readyAt.addingTimeInterval(kept.seconds), on: sql)
                }
                logger.info("data export \(id) ready: \(data.count) bytes from \(document.count) modules")
            }
            let removed = try await database.transaction { sql in try await store.removeExpired(now: now(), on: sql) }
            if removed > 0 { logger.info("\(removed) expired data exports removed") }
        } catch is CancellationError {
            // Shutting down: what was claimed is taken over when the claim runs out.
        } catch {
            logger.warning("data exports not gathered: \(error)")
        }
    }

    /// Auth's part and each holder's, asked at once; nil when a holder did not answer.
    private func gather(for user: UserID) async -> [String: PersonalData]? {
        await withTaskGroup(of: (ServiceModule, PersonalData?).self) { group in
            group.addTask {
                do {
                    return (.auth, try await AuthPersonalData.export.gather(for: user, from: database))
                } catch {
                    if !(error is CancellationError) {
                        logger.warning("data export for \(user): auth's part not read (\(error)); tried again later")
                    }
                    return (.auth, nil)
                }
            }
            for module in Wiring.personalDataHolders {
                group.addTask {
                    let client = InternalClient(module, dependencies: dependencies, timeout: Self.holderTimeout)
                    do {
                        return (module, try await client.call(PersonalDataAPI.export(of: module), path: [user]) ?? PersonalData())
                    } catch {
                        if !(error is CancellationError) {
                            logger.warning("data export for \(user): \(module.rawValue) did not answer (\(error)); tried again later")
                        }
                        return (module, nil)
                    }
                }
            }
            var document: [String: PersonalData] = [:]
            for await (module, part) in group {
                guard let part else {
                    group.cancelAll()
                    return nil
                }
                document[module.rawValue] = part
            }
            return document
        }
    }
}

extension Duration {
    var seconds: TimeInterval { TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18 }
}
