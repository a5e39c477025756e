import Foundation

/// The OpenAPI document served at `/openapi.json`; it lists the public routes that exist.
enum OpenAPIDocument {
    static let json: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else { return Data("{}".utf8) }
        return data
    }()
}
