import HuddleModules

await ModuleCommand.catalog()
