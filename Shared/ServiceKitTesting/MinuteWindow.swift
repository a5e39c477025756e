import Foundation
import HuddleEffects

/// Returns once there are at least `needed` seconds left in the current calendar minute, waiting
/// for the next minute if not: the football stand-in counts its allowance per calendar minute, as
/// API-Football does, and a test that spends it must not straddle two windows.
public func withinOneMinuteWindow(needed seconds: Double = 15) async throws {
    let intoMinute = Effects.system.now().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
    if 60 - intoMinute < seconds { try await Task.sleep(for: .seconds(60 - intoMinute + 0.1)) }
}
