import TerminalText

/// Terminal display width of text, in columns, and the form in which each grapheme cluster is
/// drawn: `TerminalText`'s, named here so that an app on PerchKit needs no second import.
public typealias DisplayWidth = TerminalText.DisplayWidth
