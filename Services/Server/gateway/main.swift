import Contracts
import Gateway
import ModuleLauncher
import ServiceHTTP

// The gateway only moves bytes between sockets: running its tasks on NIO's event loops saves a
// thread hop on every await of every proxied request.
ModuleCommand.runTasksOnEventLoops(.gateway)
await ModuleCommand.main(.gateway)
