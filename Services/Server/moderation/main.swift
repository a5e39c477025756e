import Contracts
import ModerationService
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.moderation)
