import HuddleModules

await ModuleCommand.auth()
