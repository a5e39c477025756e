import Contracts
import GamesService
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.games)
