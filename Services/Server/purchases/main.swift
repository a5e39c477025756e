import Contracts
import HuddleModules

await ModuleCommand.purchases()
