internal import MCPCore

/// A client's ``MCPCore/Implementation``, held once per connection and shared by reference
/// with the context of every call on it.
///
/// An `Implementation` is several strings and an object; copying it into each call's
/// ``ToolContext`` and destroying it after cost about 1.5 % of a call's CPU. Shared, it costs
/// one reference.
final class SharedClientInfo: Sendable {
    let value: Implementation

    init(_ value: Implementation) {
        self.value = value
    }
}
