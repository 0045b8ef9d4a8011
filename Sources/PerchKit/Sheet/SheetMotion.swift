/// How a bottom sheet moves: the detent it rests at, a drag of its grabber, its dismissal, and the
/// animation of its height between them (150 ms, ease-out), all in rows and milliseconds. A sheet
/// keeps one and asks it where it is drawn (``layout(at:_:)``); ``Sheet`` moves by it, and so may
/// an app's own sheet.
public struct SheetMotion: Hashable, Sendable {
    /// The height it rests at when not dragged.
    public var detent: SheetDetent = .fit
    /// Screen row of the grabber while it is dragged with the pointer.
    public var dragTop: Int?
    /// Set once dismissed: the sheet slides down, taking no input, and is gone at the end.
    public var isClosing = false
    /// The height last aimed at, in rows; a new target starts an ``animation`` from where it is.
    public var target = 0
    /// The animation under way, or nil at rest.
    public var animation: HeightAnimation?
    /// Edge-to-edge or inset.
    public var style: SheetStyle = .edgeToEdge

    /// How long a rise, fall or change of height takes, in milliseconds.
    public static let animationMilliseconds: Int64 = 150
    /// Time between animation frames, in milliseconds (about 60 per second).
    public static let animationFrameMilliseconds: Int64 = 16

    /// Headed for `detent`, drawn in `style`, with a height of 0 rows so far: the first
    /// ``advance(rowCount:_:clock:reduceMotion:)`` makes it rise (or appear at once, motion reduced).
    public init(detent: SheetDetent = .fit, style: SheetStyle = .edgeToEdge) {
        self.detent = detent
        self.style = style
    }

    /// Height in rows the sheet is headed for, with `rowCount` list rows on a screen of `size`:
    /// 0 once dismissed, the pointer's row while dragged, otherwise its detent's height.
    public func targetHeight(rowCount: Int, _ size: Size) -> Int {
        if isClosing { return 0 }
        if let top = dragTop { return size.height - top }
        return SheetLayout.height(for: detent, rowCount: rowCount, screen: size)
    }

    /// The height in rows drawn at `clock` (milliseconds): on its way from where the animation
    /// started to its target, with an ease-out curve, or at its target.
    public func displayedHeight(at clock: Int64) -> Int {
        guard let animation else { return target }
        let elapsed = clock - animation.start
        guard elapsed < Self.animationMilliseconds, elapsed >= 0 else { return target }
        let t = Double(elapsed) / Double(Self.animationMilliseconds)
        let eased = 1 - (1 - t) * (1 - t) * (1 - t)
        return animation.from + Int((Double(target - animation.from) * eased).rounded())
    }

    /// Geometry as drawn at `clock` (mid-animation or dragged) on a screen of `size`.
    public func layout(at clock: Int64, _ size: Size) -> SheetLayout {
        SheetLayout(height: displayedHeight(at: clock), screen: size, style: style)
    }

    /// The geometry it rests at when its animation ends, with `rowCount` list rows; cursor
    /// moves use it.
    public func restingLayout(rowCount: Int, _ size: Size) -> SheetLayout {
        SheetLayout(height: targetHeight(rowCount: rowCount, size), screen: size, style: style)
    }

    /// After every event: a target height that changed starts animating from where the sheet is
    /// drawn at `clock` (at once with `reduceMotion` or while dragged); a finished animation
    /// ends. Returns false once a dismissed sheet has slid away.
    public mutating func advance(rowCount: Int, _ size: Size, clock: Int64, reduceMotion: Bool) -> Bool {
        let newTarget = targetHeight(rowCount: rowCount, size)
        if newTarget != target {
            let from = displayedHeight(at: clock)
            animation = reduceMotion || dragTop != nil ? nil : HeightAnimation(from: from, start: clock)
            target = newTarget
        }
        if let animation, clock - animation.start >= Self.animationMilliseconds || reduceMotion {
            self.animation = nil
        }
        return !(isClosing && animation == nil)
    }

    /// Starts sliding away (no input from now on); with `reduceMotion` the caller removes the
    /// sheet at once instead.
    public mutating func close() {
        isClosing = true
        dragTop = nil
    }

    /// Ends a drag of the grabber released on screen row `row`: returns false when the sheet is
    /// to be dismissed (released below a third of its fit height); otherwise it snaps to the
    /// nearest detent (fit on a tie) and returns true.
    public mutating func endDrag(at row: Int, rowCount: Int, _ size: Size) -> Bool {
        let height = size.height - max(1, min(row, size.height - 1))
        let fit = SheetLayout.height(for: .fit, rowCount: rowCount, screen: size)
        if height * 3 < fit { return false }
        let large = SheetLayout.height(for: .large, rowCount: rowCount, screen: size)
        dragTop = nil
        detent = abs(large - height) < abs(fit - height) ? .large : .fit
        return true
    }

    /// Draws the sheet's chrome for `layout` on a screen `screenWidth` columns wide: its box
    /// cleared, the top edge with the grabber (drag indicator) centred on it, and an inset
    /// sheet's rounded border; marks the box as `chrome` and the top edge as `grabber` (neither
    /// while closing: a sheet sliding away swallows the pointer where it is drawn). Returns the
    /// columns inside the side borders, where content goes.
    @discardableResult
    public func drawChrome(_ layout: SheetLayout, into frame: inout Frame, screenWidth: Int, chrome: HitTarget, grabber: HitTarget)
        -> Range<Int>
    {
        let box = layout.frame
        let inset = style == .inset && box.x > 0
        if inset {
            // The side margins of an inset sheet are drawn blank; a click there is still outside.
            frame.screen.fill(Rect(x: 0, y: layout.top, width: screenWidth, height: box.maxY - layout.top))
        }
        frame.hits.mark(box, isClosing ? .none : chrome)
        if !isClosing { frame.hits.mark(Rect(x: box.x, y: layout.top, width: box.width, height: 1), grabber) }
        frame.screen.fill(box)
        frame.screen.fill(Rect(x: box.x, y: layout.top, width: box.width, height: 1), with: "─", style: .dim)
        if inset {
            frame.screen.put("╭", column: box.x, row: layout.top, style: .dim)
            frame.screen.put("╮", column: box.maxX - 1, row: layout.top, style: .dim)
            for row in (layout.top + 1)..<box.maxY {
                let last = row == box.maxY - 1
                frame.screen.put(last ? "╰" : "│", column: box.x, row: row, style: .dim)
                frame.screen.put(last ? "╯" : "│", column: box.maxX - 1, row: row, style: .dim)
            }
            // Bug: the bottom edge between the corners was blank; a footer drawn there (ending
            // in a space) leaves the rest of the line.
            if box.maxY - 1 > layout.top {
                frame.screen.fill(Rect(x: box.x + 1, y: box.maxY - 1, width: max(0, box.width - 2), height: 1), with: "─", style: .dim)
            }
        }
        let mark = " ━━━━━━ "
        frame.screen.put(mark, column: box.x + max(0, (box.width - DisplayWidth.columns(of: mark)) / 2), row: layout.top, style: .bold)
        return inset ? (box.x + 1)..<(box.maxX - 1) : box.x..<box.maxX
    }
}
