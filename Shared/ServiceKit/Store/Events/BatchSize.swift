/// How many events a sender's next call takes: the configured size, halved after a call that failed
/// (down to one), doubled back after `steadyCalls` full batches in a row went through. A subscriber
/// slow enough that a full batch outlasts the call's time (`EventsClient`: 5 s) still gets its
/// events, in smaller calls, rather than the same batch again and again; the size comes back when
/// the calls go through again. Pure, so its rule is tested on its own.
struct BatchSize {
    let normal: Int
    let steadyCalls: Int
    private(set) var current: Int
    private var fullInARow = 0

    init(_ normal: Int, steadyCalls: Int = 8) {
        self.normal = max(1, normal)
        self.steadyCalls = max(1, steadyCalls)
        current = self.normal
    }

    /// A call failed without an answer (timed out, cut off, the subscriber down).
    mutating func failed() {
        current = max(1, current / 2)
        fullInARow = 0
    }

    /// A call went through; `full` when it took all the events it could.
    mutating func delivered(full: Bool) {
        guard current < normal else { return }
        guard full else {
            fullInARow = 0
            return
        }
        fullInARow += 1
        if fullInARow >= steadyCalls {
            current = min(normal, current * 2)
            fullInARow = 0
        }
    }
}
