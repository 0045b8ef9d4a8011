import PerchKit

extension AppState {
    /// Applies one event and returns the effects the event loop must carry out, in order.
    /// This is the only function that changes the state: input goes to the model it is for (the
    /// top layer that takes input, else the selected pane), outcomes of effects are taken in
    /// here, and what a model asks (``Intent``) is carried out by the root.
    /// - Parameter time: when the event happened, in milliseconds on the event loop's monotonic
    ///   clock; animations started by the event start then. Nil leaves ``clock`` as it is.
    public mutating func update(_ event: AppEvent, at time: Int64? = nil) -> [Effect] {
        if let time { clock = max(clock, time) }
        // The accessible mode says each change in a line (``Narration``); a frame says nothing there.
        let before = info.accessible && !Self.isSilent(event) ? narration : nil
        var effects = handle(event)
        settlePresentations()
        effects += panesFollowed()
        effects += panesDue()
        if effects.contains(.quit) || (effects.contains(where: \.isSwitch)) {
            // What the panes looked like is kept for the next run before leaving or switching.
            effects.insert(contentsOf: panesToSave(), at: 0)
        }
        if let before { effects += narrationLines(since: before).map(Effect.say) }
        return effects
    }

    /// Whether `event` changes nothing a person reads (an animation frame, a reply, focus), so
    /// the accessible mode need not compare what is shown before and after it.
    private static func isSilent(_ event: AppEvent) -> Bool {
        switch event {
        case .ui(.animationFrame), .ui(.terminalReply), .ui(.focus(false)): true
        default: false
        }
    }

    /// ``update(_:at:)`` for input, a gesture, a frame or a resize.
    public mutating func update(_ event: UIEvent, at time: Int64? = nil) -> [Effect] { update(.ui(event), at: time) }

    /// What the panes ask for without input (``TabPane/due(_:)``: the current account's
    /// Catalog source when it never ran, at the first event and after a switch).
    private mutating func panesDue() -> [Effect] {
        let context = self.context
        var effects: [Effect] = []
        for tab in Tab.allCases {
            let intents = self[pane: tab].due(context)
            if !intents.isEmpty { effects += apply(intents, from: .pane(tab)) }
        }
        return effects
    }

    /// What the panes asked when they followed a change of account (``followed``), carried out.
    private mutating func panesFollowed() -> [Effect] {
        guard !followed.isEmpty else { return [] }
        let asked = followed
        followed = []
        return asked.flatMap { apply($0.intents, from: .pane($0.tab)) }
    }

    /// ``SavePanes`` when the panes' memory changed since last saved.
    private mutating func panesToSave() -> [Effect] {
        let memory = paneMemory
        guard memory != savedPanes else { return [] }
        savedPanes = memory
        return [.perform(SavePanes(memory))]
    }

    private mutating func handle(_ event: AppEvent) -> [Effect] {
        switch event {
        case .ui(let ui): handle(ui)
        case .outcome(let outcome, let asker): handleOutcome(outcome, for: asker)
        }
    }

    private mutating func handle(_ event: UIEvent) -> [Effect] {
        if case .key(let key) = event {
            if !bannerStays {
                // Bug: the banner after Add account… was never seen from the keyboard: the sheet
                // opened on the new account covered it, and the Esc that closed the sheet took it.
                // A key pressed while a layer is up is the layer's; the banner waits for the panes.
                if activeTop == nil { banner = nil }
            } else if key.key == .escape, presented.isEmpty {
                // Bug: the Edit config… banner went at the next key, before it could be read.
                banner = nil
                return []
            }
            // Ctrl-C and Ctrl-Z act in every context, even on a screen too small to lay out.
            if key.key == .control("c") || key.key == .control("z") { return handleKey(key) }
            if info.accessible, let effects = typeNumber(key) { return effects }
        }
        if layout.isTooSmall {
            // Only the "terminal too small" notice is on the screen: nothing else can be acted on,
            // but the outcomes of effects already under way are still taken in.
            switch event {
            case .key(let key) where key.key == .character("q") && (presented.isEmpty || inputContext == .accountSheet): return [.quit]
            case .resize, .terminalReply, .focus: break
            default: return []
            }
        }
        switch event {
        case .resize(let newSize):
            size = Layout.capped(newSize)
            // Below the minimum size nothing is laid out, so nothing is clamped: every pane's
            // cursor and scroll, and the sheet's, come back as they were when the screen grows.
            if !layout.isTooSmall { relayout() }
            return []
        case .key(let key):
            return handleKey(key)
        case .keyHold(let key):
            guard let action = KeyBindings.holdAction(for: key, in: inputContext) else { return [] }
            return perform(action, in: inputContext)
        case .longPress(let target):
            guard activeTop == nil else { return [] }
            if let tab = target.tab, tab.holdsTab {
                selectedTab = tab
                openSheet()
            } else if target.catalogRow != nil {
                return route(.longPress(target))
            }
            return []
        case .tap(let target):
            if activeTop != nil, target == .outside { return apply([.dismiss]) }
            if activeTop == nil, let tab = target.tab {
                selectedTab = tab
                return []
            }
            return route(.tap(target))
        case .scroll(let target, let notches):
            // The wheel goes to the top layer when the pointer is over it.
            if activeTop != nil, target == .outside { return [] }
            return route(.scroll(target, notches: notches))
        case .drag(let target, let position):
            return route(.drag(target, position))
        case .dragEnded(let target, let position):
            return route(.dragEnded(target, position))
        case .paste(let text):
            // Over the panes a paste means nothing; a layer on top gets it, as PerchKit's root hands
            // one to any layer, and one that takes no text ignores it.
            return activeTop == nil ? [] : routeText(text)
        case .animationFrame, .focus(false):
            return []
        case .focus(true):
            // Back from another window, where a tool may have been switched by hand: drift shows
            // without pressing `r`.
            return refreshIdentities(apply: false)
        case .terminalReply(let reply):
            return takeReply(reply)
        }
    }

    /// The kitty keyboard protocol's flags arrived (at start or late): under `--key-hold auto`
    /// release events are turned on now, once. The background colour arrived: colours are
    /// chosen for it from the next frame (``RunInfo/background``). Other replies change nothing.
    private mutating func takeReply(_ reply: TerminalReply) -> [Effect] {
        if case .backgroundColor(let rgb) = reply {
            info.background = TerminalBackground(rgb)
            return []
        }
        guard case .keyboardFlags = reply, info.keyHoldPreference == .auto, info.keyHold != .releaseEvents else { return [] }
        info.keyHold = .releaseEvents
        return [.pushKeyboardFlags(KeyHoldPreference.keyboardFlags)]
    }

    /// What the terminal is asked at start, after the first frame is drawn (never before it):
    /// its background colour (OSC 11), then the kitty keyboard protocol query under
    /// `--key-hold auto`, else the device attributes alone, whose answer ends the wait for a
    /// terminal that does not answer OSC 11.
    public var startupQueries: [TerminalQuery] {
        [.backgroundColor, info.keyHoldPreference == .auto ? .keyboardProtocol : .deviceAttributes]
    }

    /// What the loop carries out before the first frame: in the accessible mode, the first line
    /// (``narrationGreeting``); reading what the current account's tools report (Overview shows drift).
    public var startupEffects: [Effect] { (info.accessible ? [.say(narrationGreeting)] : []) + identityCheck }

    /// The accessible mode's row numbers: over the account sheet (not while its filter is typed),
    /// a digit adds to the number typed and puts the cursor on the row of that number (headings
    /// not counted; when the number grown so has no row, the digit alone starts a new one), so
    /// that `Enter` picks it; `Backspace` takes a digit back. Any other key ends the number and
    /// goes on as usual (nil). A number with no row is said, and moves nothing.
    mutating func typeNumber(_ key: KeyEvent) -> [Effect]? {
        guard let top = activeTop, let sheet = presented[top].as(AccountSheet.self), !sheet.isEditingFilter, key.modifiers.isEmpty
        else {
            typedNumber = ""
            return nil
        }
        switch key.key {
        case .character(let c) where c.isASCII && c.isWholeNumber:
            var typed = typedNumber + String(c)
            if Int(typed).flatMap({ sheetRow(numbered: $0, in: sheet) }) == nil { typed = String(c) }
            guard let number = Int(typed), let row = sheetRow(numbered: number, in: sheet) else {
                typedNumber = ""
                return [.say("No row \(c): the list has \(narration.sheet?.rows.count ?? 0).")]
            }
            typedNumber = typed
            let context = self.context
            presented[top].modify(AccountSheet.self) { $0.moveCursor(to: row, direction: 1, context) }
            // Already there: nothing changes, so nothing would be said.
            if row == sheet.cursor.cursor, let summary = narration.sheet { return [.say(Self.cursorLine(summary))] }
            return []
        case .backspace where !typedNumber.isEmpty:
            typedNumber.removeLast()
            return []
        default:
            typedNumber = ""
            return nil
        }
    }

    /// What the loop carries out once the first frame is drawn: reading the whole config when
    /// the first frame came from the current-account cache (``AccountsIndex/isLoading``).
    public var firstFrameEffects: [Effect] {
        accountsIndex.isLoading ? [.perform(LoadConfig())] : []
    }

    /// `base` with what the state decides for the recogniser: the long-press duration from
    /// Settings and the key-hold mode in effect. The loop hands it to the recogniser after every
    /// update, so a change applies to the next gesture.
    public func gestureConfiguration(_ base: GestureRecognizer.Configuration) -> GestureRecognizer.Configuration {
        var configuration = base
        configuration.longPressMilliseconds = settingsState.values.longPressMilliseconds
        configuration.keyHoldMode = info.keyHold
        configuration.holdableKeys = KeyBindings.holdableKeys
        configuration.tapFirstKeys = KeyBindings.tabHoldKeys
        return configuration
    }

    /// Whether holding `key` means something now (``KeyBindings/holds(on:)``: `1` on any pane and
    /// `Enter` on the Catalog, with no layer up). Elsewhere its auto-repeats are plain presses
    /// (the recogniser delivers them as keys), so a quick second `Enter` in a form or a sheet is
    /// not taken for a repeat.
    public func acceptsKeyHold(_ key: KeyEvent) -> Bool {
        KeyBindings.holdAction(for: key, in: inputContext) != nil
    }

    // MARK: Routing

    /// Hands `message` to the model that takes input now (the top active layer, else the
    /// selected pane), then carries out what it asks.
    mutating func route(_ message: ModelMessage) -> [Effect] {
        let context = self.context
        if let top = activeTop {
            return apply(presented[top].update(message, context), from: .layer(presented[top].id))
        }
        let tab = selectedTab
        return apply(self[pane: tab].update(message, context), from: .pane(tab))
    }

    /// Presents `layer` on top, with the next ``Presentation/id``; its replies go to `presenter`.
    mutating func present(_ layer: Presentation, by presenter: ModelID = .root) {
        var layer = layer
        layer.id = nextLayerID.take()
        layer.presenter = presenter
        presented.append(layer)
    }

    /// Typed or pasted text for a filter or a form field; a filter's search text is built first.
    mutating func routeText(_ text: String) -> [Effect] {
        if sheet != nil { accountsIndex.prepareSearch() }
        return route(.text(text))
    }

    /// Tells every pane and layer that the size or the accounts changed: each clamps its lists.
    mutating func relayout() {
        let context = self.context
        for tab in Tab.allCases { _ = self[pane: tab].update(.relayout, context) }
        for index in presented.indices { _ = presented[index].update(.relayout, context) }
    }

    mutating func handleKey(_ key: KeyEvent) -> [Effect] {
        let context = inputContext
        if let action = KeyBindings.binding(for: key, in: context)?.action { return perform(action, in: context) }
        if context.takesTyping, case .character(let c) = key.key,
            key.modifiers.subtracting(.shift).isEmpty
        {
            return routeText(String(c))
        }
        return []
    }

    /// Carries out a key's action: the root's own (quit, tabs, the sheet, help, dismissing),
    /// or the model's that takes input.
    mutating func perform(_ action: KeyAction, in context: InputContext) -> [Effect] {
        switch action {
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .nextTab, .previousTab:
            let step = action == .previousTab ? Tab.allCases.count - 1 : 1
            selectedTab = Tab(rawValue: (selectedTab.rawValue + step) % Tab.allCases.count) ?? selectedTab
        case .openAccountSheet: openSheet()
        case .showHelp: present(context.help)
        default:
            if let tab = action.selectedTab {
                selectedTab = tab
                return []
            }
            return route(.action(action))
        }
        return []
    }

    // MARK: Intents

    /// Carries out what a model asked, in order; returns the effects among them, each the
    /// `model`'s (``Effect/asked(by:_:)``), so that its outcome goes back to it.
    mutating func apply(_ intents: [Intent], from model: ModelID = .root) -> [Effect] {
        var effects: [Effect] = []
        // A layer's presenter, found before the layer dismisses itself.
        let presenter: ModelID? = {
            guard case .layer(let id) = model else { return nil }
            return presented.first { $0.id == id }?.presenter
        }()
        for intent in intents {
            switch intent {
            case .effect(let effect): effects.append(effect.asked(by: model))
            case .dismiss:
                // A layer dismisses itself (it may no longer be on top when its outcome comes back).
                if case .layer(let id) = model, let index = presented.firstIndex(where: { $0.id == id }) {
                    dismiss(at: index)
                } else {
                    dismissTop()
                }
            case .present(let layer): present(layer, by: model)
            case .reply(let value):
                if let presenter { effects += handleOutcome(value, for: presenter) }
            case .pick(let index): effects += pick(index)
            case .openSheet: openSheet()
            case .prepareSearch: accountsIndex.prepareSearch()
            case .quit: effects.append(.quit)
            case .reapplyIdentities: effects += refreshIdentities(apply: true)
            case .verifyIdentities: effects += verifyIdentities()
            case .keepPaneMemory: effects += panesToSave()
            case .banner(let text, let stays):
                banner = text
                bannerStays = stays
            case .changeSetting(let key, let step): effects += changeSetting(key, step: step)
            case .settingsNotSaved(let keys): settingsState.markUnsaved(keys)
            case .startAfresh: startAfresh(keeping: model)
            case .replaceAccounts(let newAccounts, let configPath): adoptAccounts(newAccounts, configPath: configPath)
            case .revealAccount(let id): revealAccount(id)
            }
        }
        return effects
    }

    /// Opens the account sheet with its cursor on the current account, at the fit detent; on a
    /// screen too short to show a single account row it stays closed (an invisible sheet would
    /// swallow every key).
    public mutating func openSheet(offeringAddAccount: Bool = true) {
        guard SheetLayout(rowCount: accounts.count + 1, screen: size).visibleRows > 0, !layout.isTooSmall else { return }
        var sheet = AccountSheet()
        sheet.rows = accountsIndex.groupedRows
        sheet.offersAddAccount = offeringAddAccount
        // A sheet still sliding away is taken back: the new one rises from where that one is.
        if let closing = presented.last?.as(AccountSheet.self), closing.isClosing {
            sheet.target = closing.displayedHeight(context)
            presented.removeLast()
        }
        // On the current account; with none, on the first row (not on account 0, which may sit
        // under a group heading in the middle of the list).
        let row = currentIndex.map { current in sheet.rows?.firstIndex(of: .account(current)) ?? current } ?? 0
        sheet.moveCursor(to: row, direction: 1, context)
        present(Presentation(sheet))
        settlePresentations()
    }

    /// Changes a kept setting by one step: it applies at once (the loop reads the long-press and
    /// the mouse from the state). Settings, which asked, writes the settings file itself.
    mutating func changeSetting(_ key: SettingKey, step: Int) -> [Effect] {
        settingsState.change(key, step: step)
        if key == .longPress { info.longPressMilliseconds = settingsState.values.longPressMilliseconds }
        return key == .mouse ? [.setMouse(settingsState.values.mouse)] : []
    }

    /// Dismisses the top layer that takes input; a sheet slides away unless motion is reduced.
    mutating func dismissTop() {
        guard let index = activeTop else { return }
        dismiss(at: index)
    }

    /// Dismisses the layer at `index` in ``presented``; a sheet slides away unless motion is reduced.
    mutating func dismiss(at index: Int) {
        if !presented[index].beginDismissal(context) { presented.remove(at: index) }
    }

    /// After every event, each layer moves its animation on; one that is gone (a sheet that has
    /// slid away, a menu whose item went) is removed, and with it every layer it presented (the
    /// menu's alert), whose answer would have nowhere to go.
    mutating func settlePresentations() {
        let context = self.context
        var gone: Set<Int> = []
        for index in presented.indices.reversed() where !presented[index].advance(context) {
            gone.insert(presented[index].id)
            presented.remove(at: index)
        }
        // Bug: when a Catalog reload took the menu's item away, its Delete alert stayed up over
        // nothing, and a confirmation went to the menu that was gone: the item came back.
        presented.removePresented(by: gone, id: \.id) { if case .layer(let id) = $0.presenter { id } else { nil } }
    }

    // MARK: Switching

    /// Picks the account at `index`: the Overview tab is selected, the sheet is dismissed and the
    /// switch is handed to the store (``requestSwitch(to:)``). The account becomes current only
    /// when the store confirms it (``SwitchProgress/saved(_:)``): the screen never shows a switch
    /// that was not saved. The store reads the file under its lock and records nothing when the
    /// account is already current there, so another instance's switch that this one has not seen
    /// yet cannot make a pick be lost.
    mutating func pick(_ index: Int) -> [Effect] {
        guard accounts.indices.contains(index) else { return [] }
        dismissTop()
        // Layers below the sheet (an item's cover, a context menu) belong to the Catalog of the
        // account being left: Overview is shown, so they go too.
        presented.removeAll { !$0.is(AccountSheet.self) }
        selectedTab = .overview
        return requestSwitch(to: accounts[index].id)
    }

    /// Asks the store to switch to `id`, or, while another switch is pending, queues it to be
    /// asked for next (the latest pick wins; Overview shows it). Never drops a pick.
    mutating func requestSwitch(to id: String) -> [Effect] {
        guard var pending = pendingSwitch else {
            pendingSwitch = PendingSwitch(accountID: id)
            return [.perform(RecordSwitch(accountID: id))]
        }
        pending.queued = id == pending.accountID ? nil : id
        pendingSwitch = pending
        return []
    }
}
