// Perch's core is built on PerchKit: every module that imports PerchCore sees PerchKit's types
// (screens, frames, input, gestures, the sheet's geometry) as its own.
@_exported import PerchKit
