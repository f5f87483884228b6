import Foundation

/// A fresh directory under the system's temporary folder, removed on `remove()`.
public final class TemporaryDirectory: Sendable {
    /// The folder's full path.
    public let path: String

    /// Makes a new folder named after `label` and a unique suffix.
    public init(_ label: String = "preload-tests") throws {
        let base = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    /// Writes `bytes` to `name` (which may contain folders) and returns the full path.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let target = (path as NSString).appendingPathComponent(name)
        try FileManager.default.createDirectory(
            atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    /// Writes `text` as UTF-8 to `name` (which may contain folders) and returns the full path.
    @discardableResult
    public func write(_ name: String, text: String) throws -> String {
        try write(name, Array(text.utf8))
    }

    /// Creates an empty file named `name` with every U+0001 in it replaced by the byte 0xFF:
    /// a name that is not UTF-8, which a Swift `String` (and so FileManager) cannot spell.
    public func createFileWithNonUTF8Name(_ name: String) {
        let bytes = file(name).utf8.map { $0 == 1 ? 0xFF : $0 }
        let descriptor = open(bytes.map(CChar.init(bitPattern:)) + [0], O_CREAT | O_WRONLY | O_CLOEXEC, 0o644)
        precondition(descriptor >= 0, "cannot create \(name)")
        close(descriptor)
    }

    /// The full path of `name` inside the directory.
    public func file(_ name: String) -> String {
        (path as NSString).appendingPathComponent(name)
    }

    /// Removes the folder and everything in it (also done when the last reference goes).
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit { remove() }
}
