import Foundation
import PreloadConcurrency

/// A debug-built `preload` (`swift run preload`) says once on stderr, when it starts long work,
/// that it is a debug build, how much faster the release one is and the command that builds and
/// installs it: a GPU bake in a debug build takes minutes where the release one takes seconds.
/// Long work is a GPU encode (``show()``, called as it starts) or any command past
/// ``cpuSeconds`` of CPU time (``watch()``). A release build says nothing.
enum DebugBuildNotice {
    /// How much faster a release build encodes BC7 (`preload bake --gpu bc`) than a debug one, in
    /// CPU time (0.44 s a megapixel against 40 s; README, "The tool for real work").
    static let releaseSpeedup = 90
    /// CPU seconds after which any command is long work.
    static let cpuSeconds = 5.0

    /// Whether this is a debug build (SwiftPM's debug configuration defines `DEBUG`).
    static var isDebugBuild: Bool {
        #if DEBUG
            true
        #else
            false
        #endif
    }

    /// The command that builds and installs the release tool, run from the package's folder.
    static var installCommand: String {
        // This file's path when it was compiled: the package's folder is three levels up.
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return "(cd \(package.path) && ./install-preload)"
    }

    /// The notice's words.
    static var text: String {
        "this preload is a debug build: long work (GPU encoding above all) runs about \(releaseSpeedup)x slower than in a "
            + "release build. Build and install the release one with: \(installCommand)"
    }

    private static let shown = OnceFlag()

    /// Prints the notice, in a debug build, if it has not been printed.
    static func show() {
        guard isDebugBuild, shown.claim() else { return }
        // On a terminal a progress bar may be mid-line: the notice starts on a clean one.
        let clearLine = isatty(STDERR_FILENO) == 1 ? "\r\u{1B}[2K" : ""
        FileHandle.standardError.write(Data((clearLine + "note: " + text + "\n").utf8))
    }

    /// In a debug build, shows the notice once the process has used ``cpuSeconds`` of CPU time
    /// (checked every half second by a thread of its own, which ends with the process).
    static func watch() {
        guard isDebugBuild else { return }
        Thread.detachNewThread {
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                var time = timespec()
                clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
                if Double(time.tv_sec) + Double(time.tv_nsec) / 1e9 >= cpuSeconds { return show() }
            }
        }
    }
}
