import Testing

/// The suites whose tests hold threads of Swift's shared pool with tools that compute or block,
/// run one test at a time.
///
/// Two such tests at once can hold every thread of the pool between them, and then each waits
/// for the other's hang guard: a server on an in-process transport, for one, needs the pool to
/// read the cancellation that would free its thread. Nested here (`extension PoolHoldingTests`),
/// they are serialized with each other; other suites still run beside them.
@Suite("Tests that hold threads of Swift's pool, one at a time", .serialized)
enum PoolHoldingTests {}
