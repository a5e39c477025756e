import Contracts
import ServerContracts
import ServiceHTTP
import Testing

@Suite("Browser forms, read as their schema describes them")
struct FormBodyTests {
    @Test("the first value of each described field is taken, others are left out, booleans and enums are read as the schema says")
    func formsAreReadByTheirSchema() throws {
        let fields: [(name: String, value: String)] = [
            ("csrf", "token"), ("action", "suspend"), ("reason", "true"), ("suspendDays", "7"), ("removeMessages", "true"),
            ("reason", "second"), ("", "null"), ("unknown", "x"),
        ]
        let form = try BodySchemas.shared.decode(
            ConsoleActionForm.self, from: BodySchemas.shared.formObject(fields, as: ConsoleActionForm.self))
        #expect(form == ConsoleActionForm(csrf: "token", action: .suspend, reason: "true", suspendDays: .week, removeMessages: true))
    }

    @Test("a field that breaks the schema is named in a 422; a missing one too")
    func brokenFieldsAreNamed() throws {
        func problem(_ fields: [(name: String, value: String)]) -> Problem? {
            do {
                _ = try BodySchemas.shared.decode(
                    ConsoleActionForm.self, from: BodySchemas.shared.formObject(fields, as: ConsoleActionForm.self))
                return nil
            } catch let error as any ProblemError {
                return error.problem
            } catch {
                return nil
            }
        }
        let wrongAction = problem([("csrf", "t"), ("action", "explode"), ("reason", "r")])
        #expect(wrongAction?.status == 422 && wrongAction?.errors?.map(\.field) == ["action"])
        let noReason = problem([("csrf", "t"), ("action", "warn")])
        #expect(noReason?.status == 422 && noReason?.errors?.map(\.field) == ["reason"])
        let notABoolean = problem([("csrf", "t"), ("action", "ban"), ("reason", "r"), ("removeMessages", "yes")])
        #expect(notABoolean?.status == 422 && notABoolean?.errors?.map(\.field) == ["removeMessages"])
    }
}
