import Contracts
import Crypto
import Foundation
import SQLKit
import ServiceHTTP
import ServiceStore

/// A second factor (TOTP, RFC 6238) with recovery codes: set up, confirmed with a first code, asked
/// for at every password sign-in once on, and required of staff where `auth.staff.second-factor` is
/// `required`. Secrets are kept sealed (AES-GCM), so a copy of the store alone cannot make codes.
struct SecondFactors: Sendable {
    static let issuer = "Huddle"
    static let recoveryCodeCount = 10

    let database: Database
    let users: any UserStore
    let store: any SecondFactorStore
    let sealer: TokenSealer
    let now: @Sendable () -> Date

    /// A new secret to show as a QR code; the factor is off until `confirm`.
    func setUp(for id: UserID) async throws -> SecondFactorSetup {
        let secret = TOTP.newSecret()
        let user = try await database.transaction { sql -> User in
            guard let user = try await users.user(id: id, on: sql) else { throw CommonError.unauthorized("This account no longer exists.") }
            if try await store.factor(of: id, on: sql)?.confirmed == true { throw AuthError.secondFactorOn }
            try await store.begin(id, secret: try sealer.seal(Base32.encode(secret)), at: now(), on: sql)
            return user
        }
        return SecondFactorSetup(
            secret: Base32.encode(secret), otpauthUri: TOTP(secret: secret).provisioningURI(account: user.email, issuer: Self.issuer))
    }

    /// Turns the factor on with a first code from the authenticator; answers the recovery codes, shown once.
    func confirm(_ request: SecondFactorCode, for id: UserID) async throws -> RecoveryCodes {
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.newRecoveryCode() }
        try await database.transaction { sql in
            guard let factor = try await store.factor(of: id, on: sql), !factor.confirmed else { throw AuthError.secondFactorNotPending }
            guard try await takes(request.code, factor: factor, of: id, on: sql) else { throw AuthError.wrongSecondFactorCode }
            try await store.confirm(id, recoveryHashes: codes.map(Self.hash), at: now(), on: sql)
        }
        return RecoveryCodes(recoveryCodes: codes)
    }

    /// Turns the factor off, proven by a code (or a recovery code).
    func turnOff(_ request: SecondFactorCode, for id: UserID) async throws {
        try await database.transaction { sql in
            guard try await check(request.code, of: id, on: sql) != nil else { throw AuthError.wrongSecondFactorCode }
            try await store.remove(id, on: sql)
        }
    }

    /// Whether `user` has the factor on and `code` is its current code or an unspent recovery code
    /// (spending it); nil when the factor is off.
    func check(_ code: String?, of user: UserID, on sql: any SQLDatabase) async throws -> Bool? {
        guard let factor = try await store.factor(of: user, on: sql), factor.confirmed else { return nil }
        guard let code = code?.trimmingCharacters(in: .whitespaces), !code.isEmpty else { return false }
        if try await takes(code, factor: factor, of: user, on: sql) { return true }
        return try await store.spendRecovery(hash: Self.hash(code), of: user, at: now(), on: sql)
    }

    /// A TOTP code of the factor's, taken once: a code already used (or one of an earlier step) fails.
    private func takes(_ code: String, factor: StoredSecondFactor, of user: UserID, on sql: any SQLDatabase) async throws -> Bool {
        guard let secret = (try? sealer.open(factor.secret)).flatMap(Base32.decode),
            let step = TOTP(secret: secret).matchingStep(of: code, at: now())
        else {
            return false
        }
        return try await store.take(step: step, of: user, on: sql)
    }

    /// `xxxx-xxxx` of base32 letters and digits.
    static func newRecoveryCode() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<8).map { _ in Base32.alphabet[Int.random(in: 0..<32, using: &generator)] }
        return String(characters[0..<4]).lowercased() + "-" + String(characters[4...]).lowercased()
    }

    static func hash(_ code: String) -> String { SHA256.hash(data: Data(code.lowercased().utf8)).hexString }
}
