import HuddleModules

await ModuleCommand.gateway()
