// The bridge's users get the agent policy (budget, selection, defences, events) with it, as
// they did when it lived here.
@_exported public import MCPAgent
