public import Logging

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many files a process may hold open — every socket is one — raised at start to all the
/// system allows it, as Go's runtime does for its programs.
///
/// Why: a process starts with the soft limit its parent gave it. containerd 2 (under Docker Engine
/// 29, and on Kubernetes nodes that run it; a pod has no setting for it) gives a container 1,024 soft
/// under 524,288 hard, and leaves raising the soft limit to the program that needs more. Chat, games
/// and the gateway hold a descriptor a live socket (the gateway two: the device's and its link to the
/// module), so at 1,024 an instance would refuse connections past about a thousand devices, where
/// Huddle is sized for ten thousand an instance. Raising the soft limit up to the hard one needs no
/// privilege.
public enum OpenFilesLimit {
    public struct Limits: Equatable, Sendable, CustomStringConvertible {
        public var soft: UInt64
        public var hard: UInt64

        public init(soft: UInt64, hard: UInt64) {
            self.soft = soft
            self.hard = hard
        }

        public var description: String { "\(soft) (hard limit \(hard))" }
    }

    /// Live sockets an instance is sized for; fewer allowed files than this is worth a warning.
    public static let socketsAnInstance: UInt64 = 10_000

    /// The limits a process should run with: the soft one raised to the hard one, or to `ceiling` when
    /// the system takes no more than that whatever the hard limit says.
    public static func raised(_ limits: Limits, ceiling: UInt64? = systemCeiling) -> Limits {
        Limits(soft: max(limits.soft, min(limits.hard, ceiling ?? limits.hard)), hard: limits.hard)
    }

    #if canImport(Darwin)
        /// macOS refuses a soft limit above `OPEN_MAX` (10,240), though its hard limit reads unlimited.
        public static let systemCeiling: UInt64? = UInt64(OPEN_MAX)
    #else
        public static let systemCeiling: UInt64? = nil
    #endif

    /// This process's limits now.
    public static func current() -> Limits? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return Limits(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Raises this process's soft limit to its hard limit; answers the limits before and after (the
    /// same when there was nothing to raise, or the system refused).
    @discardableResult
    public static func raise() -> (before: Limits, after: Limits)? {
        guard let before = current() else { return nil }
        let wanted = raised(before)
        guard wanted != before else { return (before, before) }
        var limit = rlimit(rlim_cur: rlim_t(wanted.soft), rlim_max: rlim_t(wanted.hard))
        guard setrlimit(resource, &limit) == 0 else { return (before, before) }
        return (before, current() ?? wanted)
    }

    /// Raises the limit, and says so in `logger`: what it was raised from, or a warning when what is
    /// allowed stays below `socketsAnInstance`.
    public static func raise(logging logger: Logger) {
        guard let (before, after) = raise() else { return }
        if after != before { logger.info("open files: \(after.soft) allowed, raised from \(before.soft)") }
        if after.soft < socketsAnInstance {
            logger.warning(
                "open files are limited to \(after): a live socket takes one (two at the gateway), so an instance holds fewer than \(socketsAnInstance); raise the nofile limit it is started with"
            )
        }
    }

    #if canImport(Glibc)
        private static var resource: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_NOFILE.rawValue) }
    #else
        private static var resource: Int32 { RLIMIT_NOFILE }
    #endif
}
