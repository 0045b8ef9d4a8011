import PerchDomain

/// One tool a session changes: what it should have, and what it had when planned (the
/// journal's before-state, which a roll-back gives back).
struct ToolChange: Sendable {
    var adapter: any ToolAdapter
    /// The state the tool should have.
    var wanted: ToolState
    /// The state the tool had when the session planned, before anything was changed.
    var before: ToolState
    /// `wanted` is the person's own (the baseline), so the tool is said to be back to it.
    var fromBaseline: Bool
}

/// The one apply loop and the one roll-back of Perch's tools: a switch, a give-back, `perch
/// reset` and the recovery of an interrupted switch all change tools through these two.
extension SwitchSession {
    /// Applies every change at once (in parallel, each program under `context`'s timeout),
    /// each verified by its adapter; `progress` is called with a pending result for each tool
    /// first, then with each tool's result as it comes back, from the calling thread or a tool's.
    /// Returns one step per change, in the order of `changes`.
    static func apply(
        _ changes: [ToolChange], in context: ToolContext, progress: @escaping @Sendable (IdentityResult) -> Void
    ) -> [ToolStep] {
        for change in changes { progress(IdentityResult(tool: change.adapter.tool, status: .pending, detail: "")) }
        return Parallel.map(
            changes.map { change in
                { @Sendable in
                    let step = change.adapter.apply(change.wanted, over: change.before, in: context)
                    progress(Self.result(change.adapter.tool, step, fromBaseline: change.fromBaseline))
                    return step
                }
            })
    }

    /// Gives every tool its `before` state back at once (in parallel). A tool that still has it
    /// (an apply that failed before changing anything) is left alone; one that cannot be read
    /// is given it blindly. Returns, in the order of `tools`, the step of putting each back
    /// (nil when it was left alone) and whether that changed what the tool uses (false for a
    /// change that meant nothing: a `--force` apply of what it had, Perch's empty ssh file
    /// where there was none; such a tool is put back byte for byte, but not said to be).
    static func putBack(_ tools: [(adapter: any ToolAdapter, before: ToolState)], in context: ToolContext) -> [(
        step: ToolStep?, changed: Bool
    )] {
        Parallel.map(
            tools.map { tool in
                { @Sendable () -> (step: ToolStep?, changed: Bool) in
                    let adapter = tool.adapter
                    guard case .success(let now) = adapter.current(in: context) else {
                        return (adapter.apply(tool.before, in: context), true)
                    }
                    if adapter.isMet(tool.before, by: now) { return (nil, false) }
                    return (adapter.apply(tool.before, in: context), !adapter.isMet(now, by: tool.before))
                }
            })
    }
}
