# The modules, each with a store of its own, as the deploy scripts start and wire them (the gateway
# has none). Source it from the repository root.
MODULES=(auth catalog games search betting chat notify purchases moderation media)
