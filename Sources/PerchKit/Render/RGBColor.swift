/// A colour as the screen shows it: sRGB, 8 bits a channel.
///
/// Relative luminance and contrast ratio follow WCAG 2.2 ("relative luminance", "contrast
/// ratio"): channels linearised from sRGB, weighted 0.2126, 0.7152, 0.0722; a ratio from 1 (no
/// contrast) to 21 (black on white).
public struct RGBColor: Hashable, Sendable {
    public var red: UInt8
    public var green: UInt8
    public var blue: UInt8

    /// The colour with these channels (0–255 each).
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// The colour written as six hexadecimal digits, `RRGGBB` (`0xCD0000` is xterm's red).
    public init(_ hex: UInt32) {
        self.init(red: UInt8((hex >> 16) & 0xFF), green: UInt8((hex >> 8) & 0xFF), blue: UInt8(hex & 0xFF))
    }

    public static let white = RGBColor(0xFFFFFF)
    public static let black = RGBColor(0x000000)

    /// WCAG 2.2 relative luminance: 0 for black, 1 for white.
    public var relativeLuminance: Double {
        0.2126 * Self.linear(red) + 0.7152 * Self.linear(green) + 0.0722 * Self.linear(blue)
    }

    /// A channel linearised from sRGB (IEC 61966-2-1): 0…1.
    static func linear(_ channel: UInt8) -> Double {
        let value = Double(channel) / 255
        return value <= 0.04045 ? value / 12.92 : power12Over5((value + 0.055) / 1.055)
    }

    /// The colour in CIELAB (D65 white; L* 0–100): where distance follows what the eye sees
    /// better than in sRGB, so the nearest colour of a palette keeps a colour's hue (CIE 1976).
    var lab: (l: Double, a: Double, b: Double) {
        let (r, g, b) = (Self.linear(red), Self.linear(green), Self.linear(blue))
        let x = (0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b) / 0.950_47
        let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b
        let z = (0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b) / 1.088_83
        func f(_ t: Double) -> Double { t > 216 / 24389 ? cubeRoot(t) : 841 / 108 * t + 4 / 29 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// WCAG 2.2 contrast ratio between this colour and `other`, 1…21, the same either way round.
    public func contrastRatio(with other: RGBColor) -> Double {
        let (a, b) = (relativeLuminance, other.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// Whether text in black reads better on this colour than text in white: the colour is a
    /// light background. Its luminance is above 0.179, where the two contrast ratios are equal.
    public var isLight: Bool { contrastRatio(with: .black) > contrastRatio(with: .white) }
}

/// `x` raised to 2.4 (12/5), for `x` in 0…1: the fifth root of `x`¹² by Newton's method, as the
/// standard library has no `pow` and PerchKit imports no C library.
private func power12Over5(_ x: Double) -> Double {
    guard x > 0 else { return 0 }
    let x2 = x * x
    let x4 = x2 * x2
    let target = x4 * x4 * x4
    // Starts at x, above the root (x^2.4 ≤ x for x ≤ 1), from where Newton's steps fall to it.
    var root = x
    for _ in 0..<64 {
        let r4 = root * root * root * root
        let next = (4 * root + target / r4) / 5
        if abs(next - root) <= 1e-15 * root { return next }
        root = next
    }
    return root
}

/// The cube root of `x`, for `x` in 0…1, by Newton's method (the standard library has no `cbrt`).
private func cubeRoot(_ x: Double) -> Double {
    guard x > 0 else { return 0 }
    // Starts at 1, above the root for x ≤ 1, from where Newton's steps fall to it.
    var root = 1.0
    for _ in 0..<64 {
        let next = (2 * root + x / (root * root)) / 3
        if abs(next - root) <= 1e-15 * root { return next }
        root = next
    }
    return root
}
