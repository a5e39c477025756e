import ChatService
import Contracts
import ModuleLauncher
import ServiceHTTP

await ModuleCommand.main(.chat)
