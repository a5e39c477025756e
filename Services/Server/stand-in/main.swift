import Contracts
import HuddleModules

try await StandInCommand.main()
