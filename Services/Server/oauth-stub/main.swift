import Contracts
import HuddleModules

try await OAuthStubCommand.main()
