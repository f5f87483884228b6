import Foundation
import Preload

/// A one-line progress bar redrawn on stderr, only when stderr is a terminal.
final class ProgressBar: Sendable {
    private let width = 30
    private let lastLength = Locked(0)

    /// A bar, or `nil` when stderr is not a terminal (piped, redirected, CI logs).
    static func onTerminal() -> ProgressBar? {
        isatty(STDERR_FILENO) == 1 ? ProgressBar() : nil
    }

    func draw(_ progress: PreloadProgress) {
        let filled = Int((progress.fractionCompleted * Double(width)).rounded(.down))
        let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
        let percent = Int((progress.fractionCompleted * 100).rounded(.down))
        // Before planning ends only downloads move the bar: no file count is known yet.
        let files = progress.totalAssets == 0 && !progress.isFinished ? "downloading" : "\(progress.finishedAssets)/\(progress.totalAssets) files"
        let line = "[\(bar)] \(percent)%  \(files)"
        write("\r" + line + padding(to: line.count))
    }

    /// Erases the bar so the summary starts on a clean line.
    func clear() {
        write("\r" + padding(to: 0) + "\r")
    }

    /// Spaces that cover whatever of the previous line is longer than the new one.
    private func padding(to length: Int) -> String {
        lastLength.withLock { last in
            defer { last = length }
            return String(repeating: " ", count: max(0, last - length))
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
