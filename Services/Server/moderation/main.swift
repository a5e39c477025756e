import Contracts
import HuddleModules

await ModuleCommand.moderation()
