import Testing

/// Every suite that runs an event loop, nested here so that they run one at a time: a loop polls
/// the process-wide signal pipe, and two loops (or a loop and a test of the pipe) at once would
/// take each other's signals.
@Suite("Event loops, one at a time", .serialized)
struct LoopSuites {}
