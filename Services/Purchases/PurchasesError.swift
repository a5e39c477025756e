import Contracts
import Hummingbird
import ServiceHTTP

/// Problems only purchases raises; shared ones (validation, 401, 404) come from `CommonError`.
enum PurchasesError: ProblemError {
    /// A signed transaction or notification that is not the App Store's, or not for this app and player.
    case invalidTransaction(String)
    /// The transaction is another account's: a purchase belongs to the account that claimed it first.
    case transactionClaimed

    var problem: Problem {
        switch self {
        case .invalidTransaction(let reason):
            Problem(.invalidTransaction, title: "Not a transaction this server accepts", detail: reason)
        case .transactionClaimed:
            Problem(
                .transactionClaimed, title: "Another account holds this purchase",
                detail: localized("The purchase was claimed by another account. Support can move it; the README says how."))
        }
    }
}
