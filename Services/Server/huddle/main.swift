import HuddleModules

await HuddleCommand.start()
