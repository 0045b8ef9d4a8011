@testable import PerchKit

/// What `reactions` ask of the root, as short text to compare with a list: `reply(1)`,
/// `dismiss`, `present`, `send(…)`, `tellPresented(…)`, `perform`, `selectTab(2)`, `quit`.
func described<Message>(_ reactions: [Reaction<Message>]) -> [String] {
    reactions.map { reaction in
        switch reaction.request {
        case .present: "present"
        case .dismiss: "dismiss"
        case .dismissAll: "dismissAll"
        case .announce(let line): "announce(\(line))"
        case .reply(let value): "reply(\(value))"
        case .send(let value): "send(\(value))"
        case .tellPresented(let value): "tellPresented(\(value))"
        case .perform: "perform"
        case .banner(let text, let stays): "banner(\(text)\(stays ? ", stays" : ""))"
        case .terminal(let request): "terminal(\(request))"
        case .selectTab(let index): "selectTab(\(index))"
        case .quit: "quit"
        }
    }
}
