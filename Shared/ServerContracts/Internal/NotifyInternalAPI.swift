public import Contracts

extension NotifyAPI {
    public enum Internal {
        public static let all: [APIOperation] = [
            EventsAPI.deliver(to: .notify).operation, EventsAPI.applied(by: .notify).operation,
            PersonalDataAPI.export(of: .notify).operation,
        ]
    }
}
