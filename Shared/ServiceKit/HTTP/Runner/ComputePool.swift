import NIOCore
public import NIOPosix

/// Threads for work that keeps a core busy: password hashing and image resizing.
///
/// SQLite's blocking calls run on `NIOThreadPool.singleton`, which has one thread per core. In the
/// all-in-one every module's queries share those threads, so a resize of a large photo or a burst of
/// sign-ins hashing at cost 12, queued there, held every query in the process behind it — a token
/// check could wait past its retries for auth's keys. Here such work only competes for the CPU,
/// which the scheduler shares, and never stands in the queries' queue.
public enum ComputePool {
    public static let shared: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()
}
