import CatalogService
import Contracts
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.catalog)
