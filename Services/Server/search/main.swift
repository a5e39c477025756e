import Contracts
import ModuleLauncher
import SearchService
import ServiceHTTP

await ModuleCommand.main(.search)
