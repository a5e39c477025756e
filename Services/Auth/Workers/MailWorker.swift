import ServiceFeatures
import ServiceLifecycle
import ServiceStore

/// Decides the requests left pending (`AccountMailRequests`) and sends queued mail as soon as either
/// is queued on any instance (`MailQueue.queued`), and at the lease's heartbeat for retries that came
/// due and a lease another instance let lapse.
struct MailWorker: Service {
    let requests: AccountMailRequests
    let delivery: MailDelivery
    let queued: Doorbell

    func run() async throws {
        await delivery.database.repeatUntilShutdown(wakingOn: queued.bell) {
            await requests.decidePending()
            await delivery.sendDue()
            return delivery.pause
        }
    }
}
