import HuddleModules

try await OAuthStubCommand.main()
