import Contracts
import Foundation
import ServerContracts
import ServiceHTTP

/// Rules for what people may type, kept apart from storage so they are easy to test and reuse.
enum AuthValidation {
    static let passwordLength = RegisterRequest.passwordLength

    static func normalizedEmail(_ raw: String) -> String {
        raw.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The register schema's rule (`RegisterRequest.emailSchema`), so the document, registration and
    /// sign-in hold one rule; and at most 254 characters, an address's limit.
    static func emailProblem(_ email: String) -> Problem.FieldError? {
        let problems = SchemaValidator(components: [:]).problems(in: .string(email), against: RegisterRequest.emailSchema)
        guard email.count <= 254, problems.isEmpty else { return .invalid("email", "must be an email address") }
        return nil
    }

    /// Counted in Unicode scalars, as the document's `minLength`/`maxLength` count.
    static func passwordProblem(_ password: String, field: String = "password") -> Problem.FieldError? {
        if password.unicodeScalars.contains(where: Control.contains) {
            return .invalid(field, "must not contain control characters")
        }
        guard passwordLength.contains(password.unicodeScalars.count) else {
            let message = "must be \(passwordLength.lowerBound) to \(passwordLength.upperBound) characters"
            return .init(field: field, message: message)
        }
        return nil
    }

    static func nameProblem(_ name: String) -> Problem.FieldError? {
        TextRule.personName.problem(name).map { .init(field: "name", message: $0) }
    }

    static func pictureUrlProblem(_ url: String) -> Problem.FieldError? {
        WebAddressRule.picture.problem(url).map { .init(field: "pictureUrl", message: $0) }
    }

    /// Throws one 422 naming every field that is wrong.
    static func require(_ problems: Problem.FieldError?...) throws {
        let found = problems.compactMap { $0 }
        if !found.isEmpty { throw CommonError.validation(found) }
    }
}
