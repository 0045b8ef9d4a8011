import PerchDomain
import PerchKit

extension TabApp {
    /// Perch's interface: PerchKit's root over Perch's panes (``Tab/panes``, each seeded with
    /// what it kept of each account in the last run) and Perch's model (``PerchModel``), on a
    /// screen of `size` (columns × rows, at most ``Layout/maximumSize``), with Perch's smallest
    /// screen (``Layout/minimumSize``) and `banner` shown from the first frame.
    /// - Parameters:
    ///   - reduceMotion: true (the default, for callers without a clock) draws every change at
    ///     once; the interface passes false unless `--reduce-motion` is given.
    ///   - loading: the config is still being read (``PerchModel/init(accounts:saved:info:reduceMotion:history:wallTime:settings:loading:)``).
    public static func perch(
        accounts: [Account], saved: SavedState = SavedState(), size: Size, info: RunInfo = RunInfo(), reduceMotion: Bool = true,
        banner: String? = nil, history: SwitchHistory = SwitchHistory(), wallTime: WallTime? = nil, settings: SettingsState? = nil,
        loading: Bool = false
    ) -> TabApp {
        let model = PerchModel(
            accounts: accounts, saved: saved, info: info, reduceMotion: reduceMotion, history: history, wallTime: wallTime,
            settings: settings, loading: loading)
        let kept = model.savedPanes
        var app = TabApp(panes: Tab.panes.map { $0.init(kept: kept) as any Pane }, model: model, size: Layout.capped(size))
        app.minimumSize = Layout.minimumSize
        if let banner { app.showBanner(banner) }
        return app
    }

    /// Perch's model, when this is Perch's interface (``perch(accounts:saved:size:info:reduceMotion:banner:history:wallTime:settings:loading:)``).
    public var perch: PerchModel? { model(PerchModel.self) }

    /// When the loop must read the wall clock again (``PerchModel/Message/wallTime(_:)``), in
    /// milliseconds on the clock: the next minute, while Stats is shown and uncovered (its
    /// current interval counts up); nil elsewhere, so that idle stays at zero wake-ups.
    public var nextWallClockDeadline: Int64? {
        guard selected == Tab.stats.rawValue, !layers.contains(where: { $0.base.coversScreen }), let wallTime = perch?.wallTime else {
            return nil
        }
        let now = wallTime.seconds(at: clock)
        let next = (now / 60 + 1) * 60
        return wallTime.monotonic + (next - wallTime.seconds) * 1000
    }
}
