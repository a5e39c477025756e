import Contracts
import Foundation
import ServiceHTTP

/// The document served at `/openapi.json`, written once at start-up from the endpoint descriptions.
enum ServedDocument {
    static let json: Data = {
        do {
            return try OpenAPIDocument.json()
        } catch {
            // A description the document cannot express is a programming error; tests catch it first.
            fatalError("cannot write the OpenAPI document: \(error)")
        }
    }()
}
