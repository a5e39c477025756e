import HuddleModules

await ModuleCommand.games()
