import PerchDomain
import PerchStore

extension SwitchSession {
    /// Gives every tool with a baseline its baseline back (`perch reset`), as one session: under
    /// the state lock, with a journal, each tool verified, and all or nothing: if a tool fails,
    /// every tool already given back is put back on what it had (the result's outcome is then
    /// nil, its failure names the tools, and the baseline is kept whole). When all succeeded the
    /// baseline file is removed. Nothing is recorded (no state, history, undo record or
    /// results): the current account is left to the caller. `progress` is called as in
    /// ``run(to:target:shouldWaitForLock:progress:)``.
    /// - Returns: the session's result, its report with one line per tool with a baseline, in
    ///   registry order (`back to your own`, `rolled back`, `failed`).
    /// - Throws: ``StateError`` when the state lock or file cannot be had; nothing is changed then.
    public func restoreBaselines(progress: @escaping @Sendable (IdentityResult) -> Void = { _ in }) throws(StateError) -> Result {
        // The journal names the account that stays current while the tools are given back.
        let current = (try? store.peek())?.state.currentAccount ?? "no account"
        return try perform(
            to: Account(id: current, name: current), target: .account, shouldWaitForLock: { _ in true }, progress: progress,
            mode: .resetting)
    }
}
