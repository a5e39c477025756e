import Contracts
import Foundation
import HuddleKit
import ServiceKitTesting
import Testing

/// Answers in the language a request asks for (`Accept-Language`): problems' titles, details and field
/// messages, with the code, the status and the field names as they always are.
@Suite("Languages through the gateway")
struct LanguagesThroughGatewayTests {
    @Test("an Italian request's problems read Italian, an Estonian one's Estonian, others English; codes and fields never change")
    func problems() async throws {
        try await StackTests.withStack(store: .sqlite) { gateway in
            let italian = ["Accept-Language": "it-IT,it;q=0.9,en;q=0.5"]
            let signedOut = try await gateway.call(GamesAPI.myGames, headers: italian)
            let problem = try signedOut.decode(Problem.self)
            #expect(signedOut.status == 401 && problem.code == "UNAUTHORIZED")
            #expect(problem.title == "Non autorizzato" && problem.detail == "È necessario un token di accesso valido.")
            let estonian = try await gateway.call(GamesAPI.myGames, headers: ["Accept-Language": "et"]).decode(Problem.self)
            #expect(estonian.title == "Autentimata" && estonian.detail == "Vaja on kehtivat juurdepääsutõendit.")
            let finnish = try await gateway.call(GamesAPI.myGames, headers: ["Accept-Language": "fi"]).decode(Problem.self)
            #expect(finnish.title == "Unauthorized")

            let session = try await gateway.register(name: "Ilaria Italiana")
            let invalid = try await gateway.call(
                CatalogAPI.createTeam, rawBody: Data(#"{"name":""}"#.utf8), token: session.accessToken, headers: italian)
            let refused = try invalid.decode(Problem.self)
            #expect(invalid.status == 422 && refused.code == "VALIDATION_FAILED" && refused.title == "Richiesta non valida")
            // The field errors' messages too, the field names as they are.
            #expect(refused.errors?.contains { $0.field == "name" && $0.message.hasPrefix("deve essere lungo") } == true, "\(refused)")
            #expect(refused.errors?.contains { $0.field == "sport" && $0.message == "è obbligatorio" } == true, "\(refused)")

            // A module's own problems read Italian where they are raised: its detail, and a field's message.
            let team = try await gateway.value(
                CatalogAPI.createTeam, body: StackTests.teamRequest(name: "Squadra Azzurra"), token: session.accessToken)
            let leaving = try await gateway.call(
                CatalogAPI.removeMember, team.id, session.user.id, token: session.accessToken, headers: italian)
            #expect(leaving.status == 409 && leaving.problem?.code == "MANAGER_CANNOT_LEAVE")
            #expect(leaving.problem?.detail == "Il responsabile non può lasciare la squadra; elimina invece la squadra.")
            let unknownTeam = try await gateway.call(CatalogAPI.team, TeamID(), token: session.accessToken, headers: italian)
            #expect(unknownTeam.problem?.detail?.hasPrefix("Non trovato: squadra con id ") == true)

            // HuddleKit sends its locale as Accept-Language.
            let app = HuddleClient(baseURL: URL(string: gateway.baseURL)!, locale: "it")
            do {
                try await app.signIn(email: "nobody-\(UUID().uuidString.prefix(8))@example.com", password: "not the password 1")
                Issue.record("a sign-in with no account went through")
            } catch let error as HuddleError {
                #expect(error.status == 401 && error.code == "INVALID_CREDENTIALS" && error.problem?.title == "Credenziali non valide")
            }
        }
    }

    @Test(
        "what the server names for itself reads in the request's language: the global room, and a deleted player's messages",
        arguments: StackTests.stores)
    func wordsTheServerWrites(store: TestStore) async throws {
        try await StackTests.withStack(store: store) { gateway in
            let reader = try await gateway.register(name: "Liis Lugeja"), leaver = try await gateway.register(name: "Lauri Lahkuja")
            func global(_ language: String?) async throws -> ChatRoom? {
                try await gateway.value(
                    ChatAPI.rooms, token: reader.accessToken, headers: language.map { ["Accept-Language": $0] } ?? [:]
                ).items.first { $0.kind == .global }
            }
            #expect(try await global("et")?.name == "Kõik")
            #expect(try await global("it-IT")?.name == "Tutti")
            let room = try #require(try await global(nil))
            #expect(room.name == "Everyone")

            let said = try await gateway.value(
                ChatAPI.send, room.id, body: SendChatMessage(text: "head aega", clientMessageId: UUID().uuidString),
                token: leaver.accessToken)
            _ = try expect(
                204,
                try await gateway.call(
                    AuthAPI.deleteMe, body: DeleteAccountRequest(password: "correct horse battery"), token: leaver.accessToken))
            func sender(_ language: String) async throws -> String? {
                try await gateway.value(
                    ChatAPI.messages, room.id, query: Query.limit(100), token: reader.accessToken, headers: ["Accept-Language": language]
                ).items.first { $0.id == said.id }?.senderName
            }
            // Chat erases the account when auth's event reaches it; its message stays, under no one's name.
            #expect(try await eventually { try await sender("et") == "Endine mängija" })
            #expect(try await sender("it") == "Ex giocatore")
            #expect(try await sender("en") == "Former player")
        }
    }
}
