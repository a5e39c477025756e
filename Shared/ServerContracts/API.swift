public import Contracts

/// Every public operation (the apps' and the console's), and every internal one, of the modules that exist.
public enum API {
    public static let publicOperations: [APIOperation] = AppAPI.operations + ConsoleAPI.all
    public static let internalOperations: [APIOperation] =
        AuthAPI.Internal.all + CatalogAPI.Internal.all + GamesAPI.Internal.all + SearchAPI.Internal.all
        + BettingAPI.Internal.all + ChatAPI.Internal.all + NotifyAPI.Internal.all + PurchasesAPI.Internal.all
        + ModerationAPI.Internal.all + MediaAPI.Internal.all

    /// The operations a module answers.
    public static func operations(of module: ServiceModule) -> [APIOperation] {
        (publicOperations + internalOperations).filter { $0.owner == module }
    }
}

/// Another module of Huddle, with the internal credential; never routed from outside.
public enum InternalCaller: EndpointAccess { public static let kind = AccessKind.internalCaller }

extension Routes {
    /// Where every module's internal operations live; the gateway never routes it.
    public static let internalPrefix = "/internal"
}

extension Routes.Header {
    /// The module credential an internal call carries.
    public static let internalToken = "X-Internal-Token"
}

extension APIOperation {
    /// A browser's page or form (the console): HTML or a 303 rather than JSON.
    public var isPage: Bool { output?.type is HTMLPage.Type || output?.type is SeeOther.Type }
}
