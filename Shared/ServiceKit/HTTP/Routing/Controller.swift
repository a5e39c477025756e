public import Hummingbird

/// A group of handlers, each registered against an endpoint description with `router.on(_:)`.
/// Controllers call domain types (use cases), never stores.
public protocol Controller: Sendable {
    func register(on router: Router<HuddleRequestContext>)
}
