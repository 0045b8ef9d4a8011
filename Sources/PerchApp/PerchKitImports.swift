// The interface runs on PerchKit's loop and backends: every file here (and every test of this
// module) sees them.
@_exported import PerchKitLoop
@_exported import PerchKitTerminal
