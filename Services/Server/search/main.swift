import HuddleModules

await ModuleCommand.search()
