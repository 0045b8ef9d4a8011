import PerchInterfaceTesting
import PerchKit

@testable import PerchDomain
@testable import PerchInterface

extension TabApp {
    /// Feeds back, for each ``Effect/recordSwitch(accountID:)`` in `effects`, the outcome a store
    /// that saves at once would report (``SwitchOutcome/inMemory(_:from:)``); returns the effects
    /// that followed (hooks, a queued pick, confirmed in turn).
    @discardableResult
    mutating func confirm(_ effects: [PerchInterface.Effect]) -> [PerchInterface.Effect] {
        var following: [PerchInterface.Effect] = []
        for effect in effects {
            guard effect.asker == .root, let id = effect.job(RecordSwitch.self)?.accountID else { continue }
            let next = update(.outcome(AnyOutcome(SwitchProgress.saved(.inMemory(id, from: saved)))))
            following += next + confirm(next)
        }
        return following
    }
}
