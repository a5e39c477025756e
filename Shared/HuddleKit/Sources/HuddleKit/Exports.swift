// An app imports HuddleKit alone and gets the wire types and endpoint descriptions with it.
@_exported public import Contracts
