import Contracts
import HuddleModules

await ModuleCommand.search()
