public import Contracts
import Foundation

/// The products the operator sells and what each unlocks (`purchases.products`). Written as
/// `<productId>=<type>:<entitlement>,<entitlement>` entries separated by `;`, e.g.
/// `huddle.location=nonConsumable:location;huddle.membership.monthly=autoRenewable:location,join,leagues`.
public struct ProductCatalog: Equatable, Sendable {
    public let products: [Product]

    /// The seed app's unlocks, one each, and a monthly membership that grants all three.
    public static let standard = ProductCatalog(products: [
        Product(productId: "huddle.location", type: .nonConsumable, entitlements: [.location]),
        Product(productId: "huddle.join", type: .nonConsumable, entitlements: [.join]),
        Product(productId: "huddle.leagues", type: .nonConsumable, entitlements: [.leagues]),
        Product(productId: "huddle.membership.monthly", type: .autoRenewable, entitlements: [.location, .join, .leagues]),
    ])

    public init(products: [Product]) { self.products = products }

    /// Parses the setting; nil names the first entry that is not `<id>=<type>:<entitlements>`.
    public init(parsing text: String) throws(Unreadable) {
        var products: [Product] = []
        for entry in text.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) }) where !entry.isEmpty {
            let idAndRest = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard idAndRest.count == 2, !idAndRest[0].isEmpty else { throw Unreadable(entry: entry) }
            let typeAndGrants = idAndRest[1].split(separator: ":", maxSplits: 1).map(String.init)
            guard let type = ProductType(rawValue: typeAndGrants[0]) else { throw Unreadable(entry: entry) }
            let grants = typeAndGrants.count == 2 ? typeAndGrants[1].split(separator: ",").map(String.init) : []
            let entitlements = grants.compactMap(Entitlement.init(rawValue:))
            guard entitlements.count == grants.count, !products.contains(where: { $0.productId == idAndRest[0] }) else {
                throw Unreadable(entry: entry)
            }
            products.append(Product(productId: idAndRest[0], type: type, entitlements: entitlements))
        }
        self.products = products
    }

    public func product(_ id: String) -> Product? { products.first { $0.productId == id } }

    /// The products that grant `entitlement`: what a refusal names as unlocking it.
    public func unlocking(_ entitlement: Entitlement) -> [String] {
        products.filter { $0.entitlements.contains(entitlement) }.map(\.productId)
    }

    public struct Unreadable: Error, Equatable, CustomStringConvertible {
        public let entry: String
        public init(entry: String) { self.entry = entry }
        public var description: String { "'\(entry)' is not <productId>=<nonConsumable|autoRenewable|consumable>:<location,join,leagues>" }
    }
}
