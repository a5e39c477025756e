import Contracts
import HuddleModules
import ServiceKit

// The gateway only moves bytes between sockets: running its tasks on NIO's event loops saves a
// thread hop on every await of every proxied request.
ModuleCommand.runTasksOnEventLoops(.gateway)
await ModuleCommand.gateway()
