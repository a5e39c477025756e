import Foundation
import ServiceLifecycle
import ServiceStore

/// Every `interval`, removes the uploads never completed a day after their URL expired, with any
/// bytes sent to them: a photo an app started and gave up on is not kept. Each instance sweeps;
/// removing what another removed already is harmless.
struct AbandonedUploads: Service {
    let uploads: Uploads
    let interval: Duration

    func run() async throws {
        await uploads.database.repeatUntilShutdown {
            await uploads.sweepAbandoned()
            return interval
        }
    }
}
