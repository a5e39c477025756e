import Foundation
import Hummingbird

/// The push stand-ins' records, on the main stand-in: what a phone would have received.
/// `GET /test/apns/deliveries?token=` (and `/test/fcm/...`) → `{items: [{token, headers, payload}]}`,
/// with `&include=rejected` the refused attempts too (with `status` and `reason`);
/// `POST /test/apns/tokens/{token}/unregister` makes APNs answer 410 Unregistered for it (FCM's
/// `UNREGISTERED` is under `/test/fcm/tokens/{token}/unregister`, with the FCM stand-in).
enum PushInspection {
    struct Deliveries: ResponseEncodable {
        let items: [PushRecorder.Attempt]
    }

    static func add(to router: Router<BasicRequestContext>, pushes: PushRecorder) {
        for service in ["apns", "fcm"] {
            router.get("test/\(service)/deliveries") { request, _ -> Deliveries in
                let token = request.uri.queryParameters["token"].map(String.init) ?? ""
                let rejected = request.uri.queryParameters["include"] == "rejected"
                return Deliveries(items: pushes.attempts(service: service, token: token, includeRejected: rejected))
            }
        }
        router.post("test/apns/tokens/:token/unregister") { _, context -> HTTPResponse.Status in
            pushes.unregister(context.parameters.get("token") ?? "")
            return .noContent
        }
    }
}
