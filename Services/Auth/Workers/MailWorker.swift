import ServiceFeatures
import ServiceLifecycle
import ServiceStore

/// Sends queued mail as soon as a mail is queued on any instance (`MailQueue.queued`), and at the
/// lease's heartbeat for retries that came due and a lease another instance let lapse.
struct MailWorker: Service {
    let delivery: MailDelivery
    let queued: Doorbell

    func run() async throws {
        await delivery.database.repeatUntilShutdown(wakingOn: queued.bell) {
            await delivery.sendDue()
            return delivery.pause
        }
    }
}
