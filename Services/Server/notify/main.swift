import Contracts
import HuddleModules

await ModuleCommand.notify()
