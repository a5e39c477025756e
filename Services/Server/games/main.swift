import Contracts
import HuddleModules

await ModuleCommand.games()
