import Contracts
import HuddleModules

await ModuleCommand.catalog()
