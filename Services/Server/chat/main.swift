import Contracts
import HuddleModules

await ModuleCommand.chat()
