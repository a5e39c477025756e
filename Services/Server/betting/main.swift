import Contracts
import HuddleModules

await ModuleCommand.betting()
