import Contracts
import ModuleLauncher
import PurchasesService
import ServiceHTTP

await ModuleCommand.main(.purchases)
