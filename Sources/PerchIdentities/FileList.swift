import PerchStore

/// Names in a folder (readdir(3)), without `.` and `..`; empty when it cannot be read.
enum FileList {
    static func names(in folder: String) -> [String] { FileSystem.names(in: folder) }
}
