import PerchStore

extension CommandLineTool {
    /// Sets the samples' state aside (``PerchPaths/setAsideSamplesState()``), saying what could
    /// not be moved.
    func moveSamplesState() {
        for problem in paths.setAsideSamplesState() { console.error("could not keep the samples' state apart: \(problem)") }
    }
}
