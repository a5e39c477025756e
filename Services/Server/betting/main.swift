import BettingService
import Contracts
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.betting)
