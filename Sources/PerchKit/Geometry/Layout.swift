/// How much of a split a part takes (``Rect/rows(_:spacing:)``, ``Rect/columns(_:spacing:)``),
/// in cells.
public enum LayoutSize: Hashable, Sendable {
    /// Exactly this many cells (fewer when the rect has not that many left).
    case fixed(Int)
    /// This percentage (0–100) of the rect's length, rounded down (fewer when not that many left).
    case percent(Int)
    /// A share of what the fixed and percentage parts leave: parts of weight 2 get twice the cells
    /// of parts of weight 1 (weights above 2^20 count as 2^20); cells left over by rounding go to
    /// the first ones.
    case fill(Int)

    /// A share of weight 1.
    public static var fill: LayoutSize { .fill(1) }
}

extension Rect {
    /// This rect cut into rows, top to bottom, sized as `sizes` say, with `spacing` blank rows
    /// between two parts: as many rects as sizes, each as wide as this one. Fixed and percentage
    /// parts are given their cells first, in order, while any are left; the fill parts share
    /// the rest. A part that gets no cells is an empty rect at the end of the parts before it.
    public func rows(_ sizes: [LayoutSize], spacing: Int = 0) -> [Rect] {
        Self.split(length: height, sizes, spacing: spacing).map { Rect(x: x, y: y + $0.start, width: width, height: $0.length) }
    }

    /// This rect cut into columns, left to right, as ``rows(_:spacing:)`` cuts rows.
    public func columns(_ sizes: [LayoutSize], spacing: Int = 0) -> [Rect] {
        Self.split(length: width, sizes, spacing: spacing).map { Rect(x: x + $0.start, y: y, width: $0.length, height: height) }
    }

    /// This rect with `top`, `left`, `bottom` and `right` cells taken off its edges (never less
    /// than empty).
    public func inset(top: Int = 0, left: Int = 0, bottom: Int = 0, right: Int = 0) -> Rect {
        let width = max(0, self.width - left - right)
        let height = max(0, self.height - top - bottom)
        return Rect(x: x + min(left, self.width), y: y + min(top, self.height), width: width, height: height)
    }

    /// The start (from 0) and length of each part of a `length` cut by `sizes`.
    static func split(length: Int, _ sizes: [LayoutSize], spacing: Int) -> [(start: Int, length: Int)] {
        guard !sizes.isEmpty else { return [] }
        let total = max(0, length)
        // Within the length, so no product below overflows (bug: `.fill(Int.max)` trapped).
        let spacing = min(max(0, spacing), total)
        let gaps = min(total, spacing * (sizes.count - 1))
        var left = max(0, total - gaps)
        var lengths = [Int](repeating: 0, count: sizes.count)
        for (index, size) in sizes.enumerated() {
            switch size {
            case .fixed(let cells): lengths[index] = min(max(0, cells), left)
            case .percent(let percent): lengths[index] = min(total * min(100, max(0, percent)) / 100, left)
            case .fill: continue
            }
            left -= lengths[index]
        }
        let weights = sizes.map { size -> Int in
            if case .fill(let weight) = size { return min(max(0, weight), 1 << 20) }
            return 0
        }
        let weight = weights.reduce(0, +)
        if weight > 0 {
            var shared = 0
            for index in sizes.indices where weights[index] > 0 {
                lengths[index] = left * weights[index] / weight
                shared += lengths[index]
            }
            // Rounding's remainder, a cell each to the first fill parts.
            var remainder = left - shared
            for index in sizes.indices where weights[index] > 0 && remainder > 0 {
                lengths[index] += 1
                remainder -= 1
            }
        }
        var start = 0
        var parts: [(start: Int, length: Int)] = []
        for (index, length) in lengths.enumerated() {
            let begin = min(start, total)
            parts.append((begin, min(length, total - begin)))
            start = begin + length + (index < lengths.count - 1 ? spacing : 0)
        }
        return parts
    }
}
