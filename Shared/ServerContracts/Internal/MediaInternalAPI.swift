public import Contracts

extension MediaAPI {
    public enum Internal {
        /// Auth's account deletions reach media, and media answers its part of a player's export.
        public static let all: [APIOperation] = [
            EventsAPI.deliver(to: .media).operation, EventsAPI.applied(by: .media).operation, PersonalDataAPI.export(of: .media).operation,
        ]
    }
}
