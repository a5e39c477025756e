import Foundation
import SQLKit

extension Database {
    /// A health check: the schema is migrated (a replica that answers is ready for requests) and
    /// `SELECT 1` runs.
    public var healthCheck: @Sendable () async -> Bool {
        { [self] in
            guard isMigrated else { return false }
            return (try? await self.read { try await $0.raw("SELECT 1").run() }) != nil
        }
    }
}
