import PerchKit

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
            TooSmallNotice(size: size, minimum: Layout.minimumSize).render(into: &frame.screen)
            return frame
        }
        let context = self.context
        self[pane: selectedTab].render(into: &frame, context)
        if let banner { Banner(banner, stays: bannerStays).render(into: &frame, above: layout.pane) }
        renderTabBar(into: &frame, layout)
        let top = activeTop
        for (index, layer) in presented.enumerated() {
            if index == top { frame.hits.mark(Rect(x: 0, y: 0, width: size.width, height: size.height), .outside) }
            layer.render(into: &frame, context)
        }
        // The theme's colours for the background are applied as the frame is drawn, per run.
        let theme = settingsState.values.theme
        frame.styles = theme.styleMap(on: theme.background(reported: info.background))
        return frame
    }

    /// The screen of ``renderFrame()`` as the terminal shows it, its theme's colours applied
    /// (``Frame/drawnScreen``).
    public func render() -> Screen { renderFrame().drawnScreen }

    /// What lies under `position` on the screen as it is drawn now (``renderFrame()``'s hit map).
    /// The event loop hit-tests the frame it last drew instead, which is what the person saw.
    public func hitTest(_ position: Position) -> HitTarget {
        renderFrame().hits.target(at: position)
    }

    /// Most rows a banner takes; a longer message ends in `…` (PerchKit's ``Banner``).
    public static let maximumBannerRows = Banner.maximumRows

    /// The banner as drawn (``Banner/lines(width:paneHeight:)``: wrapped to the screen, at most
    /// ``maximumBannerRows`` rows, or half the pane whole for one that stays); empty without one.
    public var bannerLines: [String] {
        guard let banner else { return [] }
        return Banner(banner, stays: bannerStays).lines(width: size.width, paneHeight: Layout(size: size).pane.height)
    }

    /// The notice shown instead of the interface on a screen below ``Layout/minimumSize``,
    /// e.g. "terminal too small (19×6, needs 20×6)" (PerchKit's ``TooSmallNotice``).
    public var tooSmallNotice: String { TooSmallNotice(size: size, minimum: Layout.minimumSize).text }

    private func renderTabBar(into frame: inout Frame, _ layout: Layout) {
        TabBar(titles: Tab.titles, selected: selectedTab.rawValue, holdable: Tab.holdable)
            .render(into: &frame, in: layout.tabBar)
    }
}
