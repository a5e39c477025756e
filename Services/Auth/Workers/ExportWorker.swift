import ServiceLifecycle
import ServiceStore

/// Gathers pending data exports as soon as one is asked for (`DataExports.requested`), and every
/// `interval` (`auth.exports.poll.ms`) for those a down service or a kill left pending.
struct ExportWorker: Service {
    let exports: DataExports
    let interval: Duration

    func run() async throws {
        await exports.database.repeatUntilShutdown(wakingOn: exports.requested.bell) {
            await exports.gatherPending()
            return interval
        }
    }
}
