import Foundation

/// Writes several files so that a failure leaves none of them half-written: each goes to a
/// hidden temporary name in its folder first (folders are made as needed); only when all are
/// written are they renamed into place (each rename is atomic), and on any error the temporary
/// files are removed.
enum AtomicFiles {
    /// A file that could not be written, and why.
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    static func write(_ files: [(path: String, bytes: [UInt8])]) throws {
        var temporaries: [(temporary: String, final: String)] = []
        do {
            for (path, bytes) in files {
                let folder = (path as NSString).deletingLastPathComponent
                if !folder.isEmpty {
                    do {
                        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    } catch {
                        throw WriteError(path: path, reason: "its folder cannot be made")
                    }
                }
                let temporary = (folder.isEmpty ? "" : folder + "/") + ".\((path as NSString).lastPathComponent).\(getpid()).tmp"
                temporaries.append((temporary, path))
                guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
                    throw WriteError(path: path, reason: String(cString: strerror(errno)))
                }
            }
            for (temporary, final) in temporaries where rename(temporary, final) != 0 {
                throw WriteError(path: final, reason: String(cString: strerror(errno)))
            }
        } catch {
            for (temporary, _) in temporaries { unlink(temporary) }
            throw error
        }
    }
}
