extension AppState {
    /// Draws the whole screen for the current state: the selected pane, the banner and the tab
    /// bar, then each presented layer, bottom first, each by its own model; and records what was
    /// drawn where. Pure: the same state always gives the same frame.
    ///
    /// Presented layers are modal: just before the top layer that takes input is drawn, the whole
    /// screen is marked ``HitTarget/outside``, so only that layer reacts to the pointer. A sheet
    /// sliding away above it swallows the pointer where it is still drawn.
    public func renderFrame() -> Frame {
        var frame = Frame(size: size)
        let layout = Layout(size: size)
        guard size.width > 0, size.height > 0 else { return frame }
        if layout.isTooSmall {
            renderTooSmall(into: &frame.screen)
            return frame
        }
        let context = self.context
        self[pane: selectedTab].render(into: &frame, context)
        let bannerLines = self.bannerLines
        let bannerStyle = Style(foreground: .yellow, reverse: true)
        for (offset, line) in bannerLines.enumerated() {
            let row = layout.pane.maxY - bannerLines.count + offset
            let rect = Rect(x: 0, y: row, width: size.width, height: 1)
            frame.hits.mark(rect, .none)
            frame.screen.fill(rect, style: bannerStyle)
            frame.screen.put(" " + line, column: 0, row: row, style: bannerStyle)
        }
        renderTabBar(into: &frame, layout)
        let top = activeTop
        for (index, layer) in presented.enumerated() {
            if index == top { frame.hits.mark(Rect(x: 0, y: 0, width: size.width, height: size.height), .outside) }
            layer.render(into: &frame, context)
        }
        frame.screen.apply(settingsState.values.theme)
        return frame
    }

    /// The screen of ``renderFrame()``.
    public func render() -> Screen { renderFrame().screen }

    /// What lies under `position` on the screen as it is drawn now (``renderFrame()``'s hit map).
    /// The event loop hit-tests the frame it last drew instead, which is what the person saw.
    public func hitTest(_ position: Position) -> HitTarget {
        renderFrame().hits.target(at: position)
    }

    /// Most rows a banner takes; a longer message ends in `…`.
    public static let maximumBannerRows = 3

    /// The banner's text wrapped at spaces to the screen width (less one column of margin), on at
    /// most ``maximumBannerRows`` rows and never more than half the pane; empty without a banner.
    /// A banner that stays until dismissed (``bannerStays``) may take half the pane, so that its
    /// reason is shown whole, and ends saying how to dismiss it.
    public var bannerLines: [String] {
        let pane = Layout(size: size).pane
        let rows = bannerStays ? pane.height / 2 : min(Self.maximumBannerRows, pane.height / 2)
        guard let banner, rows > 0, size.width > 2 else { return [] }
        return DisplayWidth.wrapped(bannerStays ? banner + " (Esc dismisses this.)" : banner, to: size.width - 2, rows: rows)
    }

    /// The notice shown instead of the interface on a screen below ``Layout/minimumSize``,
    /// e.g. "terminal too small (19×6, needs 20×6)".
    public var tooSmallNotice: String {
        "terminal too small (\(size.width)×\(size.height), needs \(Layout.minimumSize.width)×\(Layout.minimumSize.height))"
    }

    /// The ``tooSmallNotice``, wrapped and centred on a blank screen.
    private func renderTooSmall(into screen: inout Screen) {
        let lines = DisplayWidth.wrapped(tooSmallNotice, to: size.width, rows: size.height)
        let top = (size.height - lines.count) / 2
        for (offset, line) in lines.enumerated() {
            let column = (size.width - DisplayWidth.columns(of: line)) / 2
            screen.put(line, column: column, row: top + offset, style: .bold)
        }
    }

    private func renderTabBar(into frame: inout Frame, _ layout: Layout) {
        TabBar(titles: Tab.allCases.map(\.title), selected: selectedTab.rawValue, holdable: Set(Tab.allCases.filter(\.holdsTab).map(\.rawValue)))
            .render(into: &frame, in: layout.tabBar)
    }
}
