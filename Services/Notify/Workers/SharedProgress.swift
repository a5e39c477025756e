import Contracts

/// How far each shared row a worker claimed is answered (`SQLPushJobStore`): its devices before the
/// first one not yet answered are done, and the row's `answered` moves to there. A device answered
/// out of turn waits for those before it, so a kill sends it again rather than skip one never sent;
/// the sends run a few dozen at a time in the row's order, so it is never far behind.
struct SharedProgress: Sendable {
    private struct Row {
        var answered: Int
        let devices: Int
        /// Places after `answered` that are done: answered out of turn, or blank (withdrawn) when claimed.
        var done: Set<Int>
        /// Told as finished once; not told again.
        var told = false
    }

    private var rows: [PushJobID: Row] = [:]

    /// The shared rows among `claimed`: each answered as far as it was, its places without a job done.
    init(_ claimed: [PushJob]) {
        for job in claimed {
            guard let shared = job.shared else { continue }
            rows[job.id, default: Row(answered: shared.answered, devices: shared.devices, done: Set(shared.answered..<shared.devices))]
                .done.remove(shared.index)
        }
    }

    /// Counts the places answered; every row still held, with how many of its devices are done now
    /// (each is written with its lease held on, moved or not: one send slower than the lease must not
    /// let another worker take the row and send all after it again), and each row finished, once.
    mutating func answer(_ places: [(row: PushJobID, index: Int)]) -> [(row: PushJobID, answered: Int, devices: Int)] {
        for (row, index) in places { rows[row]?.done.insert(index) }
        return rows.keys.sorted { $0.description < $1.description }.compactMap { id in
            guard var row = rows[id], !row.told else { return nil }
            while row.answered < row.devices, row.done.remove(row.answered) != nil { row.answered += 1 }
            row.told = row.answered == row.devices
            rows[id] = row
            return (id, row.answered, row.devices)
        }
    }
}
