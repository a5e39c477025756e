import Contracts
import Foundation
import ServiceKit

/// Rules for what people may type, kept apart from storage so they are easy to test and reuse.
enum AuthValidation {
    static let minimumPasswordLength = RegisterRequest.passwordLength.lowerBound
    static let maximumPasswordLength = RegisterRequest.passwordLength.upperBound  // bcrypt reads at most 72 bytes

    static func normalizedEmail(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    static func emailProblem(_ email: String) -> Problem.FieldError? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !email.contains(where: \.isWhitespace)
        else { return .init(field: "email", message: "must be an email address") }
        return nil
    }

    static func passwordProblem(_ password: String) -> Problem.FieldError? {
        if password.count < minimumPasswordLength {
            return .init(field: "password", message: "must be at least \(minimumPasswordLength) characters")
        }
        if password.utf8.count > maximumPasswordLength {
            return .init(field: "password", message: "must be at most \(maximumPasswordLength) bytes")
        }
        return nil
    }

    static func nameProblem(_ name: String) -> Problem.FieldError? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (1...100).contains(trimmed.count) else { return .init(field: "name", message: "must be 1–100 characters") }
        return nil
    }

    static func pictureUrlProblem(_ url: String) -> Problem.FieldError? {
        guard url.count <= 2048, let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased()),
            parsed.host?.isEmpty == false
        else { return .init(field: "pictureUrl", message: "must be an http(s) URL") }
        return nil
    }

    /// Throws one 422 naming every field that is wrong.
    static func require(_ problems: Problem.FieldError?...) throws {
        let found = problems.compactMap { $0 }
        if !found.isEmpty { throw CommonError.validation(found) }
    }
}
