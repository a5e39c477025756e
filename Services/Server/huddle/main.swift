import Contracts
import HuddleModules

await HuddleCommand.start()
