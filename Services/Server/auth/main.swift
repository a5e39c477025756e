import Contracts
import HuddleModules

await ModuleCommand.auth()
