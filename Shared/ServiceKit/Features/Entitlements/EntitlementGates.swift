public import Configuration
public import Contracts
import ServiceHTTP

/// The purchases gates in force and the products that unlock each. `purchases.gates` lists the
/// entitlements enforced (`location`, `join`, `leagues`); empty by default, so a deployment that
/// sells nothing behaves as before. `purchases.products` is the catalog purchases sells
/// (`ProductCatalog`): a refusal names the products that would lift it. Every service that owns a
/// gated action reads both keys, as purchases reads the second.
public struct EntitlementGates: Sendable {
    public let enforced: Set<Entitlement>
    public let catalog: ProductCatalog

    public init(enforced: Set<Entitlement> = [], catalog: ProductCatalog = .standard) {
        self.enforced = enforced
        self.catalog = catalog
    }

    public init(reader: ConfigReader) throws {
        var enforced = Set<Entitlement>()
        for name in reader.list("purchases.gates") {
            guard let gate = Entitlement(rawValue: name) else {
                throw MissingConfiguration(key: "purchases.gates", hint: "'\(name)' is none of location, join, leagues")
            }
            enforced.insert(gate)
        }
        self.init(enforced: enforced, catalog: try ProductCatalog(reader: reader))
    }

    public func isEnforced(_ entitlement: Entitlement) -> Bool { enforced.contains(entitlement) }
}

extension ProductCatalog {
    /// `purchases.products`, or the standard catalog when it is not set.
    public init(reader: ConfigReader) throws {
        guard let products = reader.text("purchases.products") else {
            self = .standard
            return
        }
        do {
            self = try ProductCatalog(parsing: products)
        } catch {
            throw MissingConfiguration(key: "purchases.products", hint: error.description)
        }
    }
}
