import Testing

@testable import PerchKit

/// The kitty keyboard protocol's `CSI … u` keys and functional-key forms with event types, and
/// xterm's `modifyOtherKeys` forms (https://sw.kovidgoyal.net/kitty/keyboard-protocol/).
@Suite("Kitty keyboard protocol and modifyOtherKeys decoding")
struct KittyKeyboardDecoderTests {
    func decode(_ text: String) -> [InputEvent] {
        var decoder = InputDecoder()
        return decoder.feed(Array(text.utf8)) + decoder.flush()
    }

    @Test(
        "CSI u keys: press, repeat and release of 1, Enter, Tab, Backspace and Esc",
        arguments: [
            ("\u{1B}[49u", InputEvent.key(.char("1"))),
            ("\u{1B}[49;1:1u", .key(.char("1"))),
            ("\u{1B}[49;1:2u", .keyRepeat(.char("1"))),
            ("\u{1B}[49;1:3u", .keyRelease(.char("1"))),
            ("\u{1B}[49;;49u", .key(.char("1"))),
            ("\u{1B}[13u", .key(KeyEvent(.enter))),
            ("\u{1B}[13;1:3u", .keyRelease(KeyEvent(.enter))),
            ("\u{1B}[9;1:2u", .keyRepeat(KeyEvent(.tab))),
            ("\u{1B}[9;2u", .key(KeyEvent(.tab, modifiers: .shift))),
            ("\u{1B}[127u", .key(KeyEvent(.backspace))),
            ("\u{1B}[27u", .key(KeyEvent(.escape))),
            ("\u{1B}[27;1:3u", .keyRelease(KeyEvent(.escape))),
            ("\u{1B}[57363u", .key(KeyEvent(.menu))),
            ("\u{1B}[57414u", .key(KeyEvent(.enter))),
            ("\u{1B}[57400u", .key(.char("1"))),
        ])
    func csiUKeys(input: String, expected: InputEvent) {
        #expect(decode(input) == [expected], "\(input.debugDescription)")
    }

    @Test(
        "CSI u modifiers: Ctrl-letters are control keys, Shift goes into the character, Alt stays, lock keys are ignored",
        arguments: [
            ("\u{1B}[99;5u", InputEvent.key(KeyEvent(.control("c")))),
            ("\u{1B}[99;69u", .key(KeyEvent(.control("c")))),  // Ctrl with Caps Lock
            ("\u{1B}[97;2u", .key(.char("A"))),
            ("\u{1B}[49:33;2u", .key(.char("!"))),
            ("\u{1B}[49:33;2;33u", .key(.char("!"))),
            ("\u{1B}[97;3u", .key(KeyEvent(.character("a"), modifiers: .alt))),
            ("\u{1B}[233;;233u", .key(.char("é"))),
            ("\u{1B}[113;129u", .key(.char("q"))),  // Num Lock only
            ("\u{1B}[13;5u", .key(KeyEvent(.enter, modifiers: .control))),
        ])
    func csiUModifiers(input: String, expected: InputEvent) {
        #expect(decode(input) == [expected], "\(input.debugDescription)")
    }

    @Test(
        "Functional keys with event types keep their legacy finals: arrows, Home, F1, Page Up, F3 (13~)",
        arguments: [
            ("\u{1B}[1;1:3A", InputEvent.keyRelease(KeyEvent(.up))),
            ("\u{1B}[1;1:2B", .keyRepeat(KeyEvent(.down))),
            ("\u{1B}[1;5:1C", .key(KeyEvent(.right, modifiers: .control))),
            ("\u{1B}[1;1:3H", .keyRelease(KeyEvent(.home))),
            ("\u{1B}[1;1:3P", .keyRelease(KeyEvent(.function(1)))),
            ("\u{1B}[5;1:2~", .keyRepeat(KeyEvent(.pageUp))),
            ("\u{1B}[13~", .key(KeyEvent(.function(3)))),
            ("\u{1B}[3;1:3~", .keyRelease(KeyEvent(.delete))),
        ])
    func functionalKeys(input: String, expected: InputEvent) {
        #expect(decode(input) == [expected], "\(input.debugDescription)")
    }

    @Test("Modifier and lock keys on their own, and replies to the protocol query, are no keys")
    func modifierKeysAreNoKeys() {
        for input in ["\u{1B}[57441u", "\u{1B}[57441;2:3u", "\u{1B}[57358u", "\u{1B}[?31u", "\u{1B}[?0u"] {
            let events = decode(input)
            #expect(events.count == 1 && !events.contains { if case .key = $0 { true } else { false } }, "\(input.debugDescription)")
        }
    }

    // Issue 11 §4: a terminal left in another keyboard mode by a program that crashed.
    @Test(
        "modifyOtherKeys forms of Esc, Enter, Tab, Backspace and Ctrl-letters are decoded at all times",
        arguments: [
            ("\u{1B}[27;1;27~", InputEvent.key(KeyEvent(.escape))),
            ("\u{1B}[27;1;13~", .key(KeyEvent(.enter))),
            ("\u{1B}[27;2;9~", .key(KeyEvent(.tab, modifiers: .shift))),
            ("\u{1B}[27;1;127~", .key(KeyEvent(.backspace))),
            ("\u{1B}[27;5;99~", .key(KeyEvent(.control("c")))),
            ("\u{1B}[27;5;113~", .key(KeyEvent(.control("q")))),
            ("\u{1B}[27;3;97~", .key(KeyEvent(.character("a"), modifiers: .alt))),
            ("\u{1B}[99;5u", .key(KeyEvent(.control("c")))),
            ("\u{1B}[27;5u", .key(KeyEvent(.escape, modifiers: .control))),
        ])
    func modifyOtherKeys(input: String, expected: InputEvent) {
        #expect(decode(input) == [expected], "\(input.debugDescription)")
    }

    @Test(
        "Malformed CSI u and modifyOtherKeys sequences are unknown, never keys",
        arguments: [
            "\u{1B}[u", "\u{1B}[49;1:9u", "\u{1B}[1114112u", "\u{1B}[27;5~", "\u{1B}[27;1;2;3~", "\u{1B}[9999999999u", "\u{1B}[49;1:3:4:5A",
        ])
    func malformed(input: String) {
        let events = decode(input)
        #expect(events.allSatisfy { if case .unknown = $0 { true } else { false } }, "\(input.debugDescription): \(events)")
    }
}
