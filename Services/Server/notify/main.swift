import Contracts
import ModuleLauncher
import NotifyService
import ServiceHTTP

await ModuleCommand.main(.notify)
