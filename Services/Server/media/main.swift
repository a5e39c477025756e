import Contracts
import MediaService
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.media)
