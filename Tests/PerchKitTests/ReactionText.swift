@testable import PerchKit

/// What `reactions` ask of the root, as short text to compare with a list: `reply(1)`,
/// `dismiss`, `present`, `perform`, `selectTab(2)`, `quit`.
func described<Message>(_ reactions: [Reaction<Message>]) -> [String] {
    reactions.map { reaction in
        switch reaction.erased {
        case .present: "present"
        case .dismiss: "dismiss"
        case .reply(let value): "reply(\(value))"
        case .perform: "perform"
        case .selectTab(let index): "selectTab(\(index))"
        case .quit: "quit"
        }
    }
}
