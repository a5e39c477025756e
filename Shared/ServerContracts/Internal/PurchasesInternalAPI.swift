public import Contracts

extension PurchasesAPI {
    public enum Internal {
        public static let all: [APIOperation] =
            [
                EventsAPI.deliver(to: .purchases).operation, EventsAPI.applied(by: .purchases).operation,
                PersonalDataAPI.export(of: .purchases).operation,
            ] + EventsAPI.publisherOperations(of: .purchases)
    }
}
