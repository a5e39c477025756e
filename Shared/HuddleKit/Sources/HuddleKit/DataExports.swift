public import Contracts
public import Foundation

extension HuddleClient {
    /// Asks for a copy of everything Huddle holds of the signed-in player (GDPR Art. 20), gathered
    /// from every service. While one is being gathered, asking again answers that one.
    public func requestDataExport() async throws -> DataExport {
        try await send(AuthAPI.requestExport)
    }

    /// The export as it stands: `pending`, or `ready` with its `document` until `expiresAt`.
    public func dataExport(_ id: DataExportID) async throws -> DataExport {
        try await send(AuthAPI.export, id)
    }

    /// Asks for an export and waits until it is ready (within a minute on a healthy deployment),
    /// checking every `interval`; throws `HuddleError` with kind `.timedOut` after `timeout`.
    ///
    ///     let export = try await huddle.exportMyData()
    ///     let file = try export.documentFile()   // hand it to a ShareLink
    public func exportMyData(checkingEvery interval: Duration = .seconds(2), timeout: Duration = .seconds(120)) async throws
        -> DataExport
    {
        var export = try await requestDataExport()
        let deadline = ContinuousClock.now + timeout
        while export.status != .ready {
            guard ContinuousClock.now + interval < deadline else { throw HuddleError(kind: .timedOut) }
            try await Task.sleep(for: interval)
            export = try await dataExport(export.id)
        }
        return export
    }
}

extension DataExport {
    /// The document as a pretty-printed JSON file in the temporary directory, named for the export,
    /// to share or save; nil while it is pending.
    public func documentFile() throws -> URL? {
        guard let document else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("huddle-data-\(id).json")
        try encoder.encode(document).write(to: url, options: .atomic)
        return url
    }
}
