import Foundation

/// The SHA-256 of each watched file's bytes as last seen, so that a file written again with the
/// same bytes (an editor's save with no edit, `cp` of the same export, a tool that rewrites its
/// output every run) reloads nothing. Regular files only: a folder's change (a sprite added)
/// always counts. A file that cannot be read, or a machine without libcrypto, has no digest,
/// and every change to it counts, as before.
struct ContentDigests {
    private var known: [String: [UInt8]] = [:]

    /// Notes `path`'s bytes as loaded, unless a digest is held already (the digest of a file
    /// changed since is taken when its change settles, not from a later batch's report).
    mutating func remember(_ path: String) {
        guard known[path] == nil, let digest = Self.digest(of: path) else { return }
        known[path] = digest
    }

    /// Whether `path`'s bytes differ from those last seen (or are unknown); notes them as seen.
    mutating func changed(_ path: String) -> Bool {
        guard let old = known[path] else {
            if let digest = Self.digest(of: path) { known[path] = digest }
            return true
        }
        guard let digest = Self.digest(of: path) else {
            known[path] = nil
            return true
        }
        known[path] = digest
        return digest != old
    }

    /// The SHA-256 of a regular file's bytes, read in blocks (not mapped: an editor may be
    /// truncating it); `nil` for a folder, a file that cannot be read, or without libcrypto.
    static func digest(of path: String) -> [UInt8]? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let handle = FileHandle(forReadingAtPath: path)
        else { return nil }
        defer { try? handle.close() }
        var hash = SHA256()
        do {
            while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {  // nil at the end
                block.withUnsafeBytes { hash.update(bufferPointer: $0) }
            }
        } catch {
            return nil
        }
        return try? hash.finalize()
    }
}
