import AuthService
import Contracts
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.auth)
