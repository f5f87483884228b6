import Foundation
import PreloadConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// Watches folders with Linux's inotify and reports the paths of entries that changed in them
/// (written, created, deleted, renamed in or out). Folders, not files: an editor that saves by
/// writing a temporary file and renaming it over the original replaces the file's inode, which a
/// watch on the file would lose.
///
/// One thread waits on the inotify descriptor and a wake-up pipe; ``stop()`` wakes it, waits
/// for it to end and closes both descriptors (the kernel drops every watch with the first).
final class FolderMonitor: Sendable {
    private struct State {
        var folderByWatch: [Int32: String] = [:]
        var watchByFolder: [String: Int32] = [:]
        var isStopped = false
    }

    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = PreloadMutex(State())
    private let ended = DispatchSemaphore(value: 0)
    private let onChange: @Sendable (String) -> Void

    /// A monitor calling `onChange` (on its own thread) with each changed entry's path, or with
    /// a folder's path when the kernel dropped events (everything in it may have changed).
    init(onChange: @escaping @Sendable (String) -> Void) throws(WatchError) {
        #if canImport(Glibc)
            let inotify = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard inotify >= 0 else { throw .unavailable("inotify_init1: \(String(cString: strerror(errno)))") }
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else {
                close(inotify)
                throw .unavailable("pipe: \(String(cString: strerror(errno)))")
            }
            for end in pipeEnds {
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                _ = fcntl(end, F_SETFL, O_NONBLOCK)
            }
            self.inotify = inotify
            (wakeRead, wakeWrite) = (pipeEnds[0], pipeEnds[1])
            self.onChange = onChange
            let thread = Thread { [self] in run() }
            thread.name = "preload.watcher"
            thread.start()
        #else
            throw .unavailable("file watching needs Linux's inotify")
        #endif
    }

    /// How many folders are watched.
    var folderCount: Int { state.withLock { $0.watchByFolder.count } }

    /// Watches `folder` (an absolute path), once however often it is asked.
    func watch(folder: String) throws(WatchError) {
        #if canImport(Glibc)
            try state.withLock { (state) throws(WatchError) in
                guard !state.isStopped, state.watchByFolder[folder] == nil else { return }
                let mask = UInt32(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
                let watch = inotify_add_watch(inotify, folder, mask)
                guard watch >= 0 else { throw .cannotWatch(folder, String(cString: strerror(errno))) }
                state.watchByFolder[folder] = watch
                state.folderByWatch[watch] = folder
            }
        #endif
    }

    /// Stops the thread and frees the descriptors; later calls do nothing.
    func stop() {
        #if canImport(Glibc)
            let first = state.withLock { state in
                defer { state.isStopped = true }
                return !state.isStopped
            }
            guard first else { return }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            ended.wait()
            close(inotify)
            close(wakeRead)
            close(wakeWrite)
            state.withLock { $0 = State(isStopped: true) }
        #endif
    }

    deinit { stop() }

    #if canImport(Glibc)
        private func run() {
            defer { ended.signal() }
            let capacity = 64 * 1024
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
            defer { buffer.deallocate() }
            var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            while true {
                guard poll(&descriptors, 2, -1) >= 0 || errno == EINTR else { return }
                if descriptors[1].revents != 0 { return }
                guard descriptors[0].revents != 0 else { continue }
                let count = read(inotify, buffer, capacity)
                guard count > 0 else { continue }
                for path in changedPaths(in: UnsafeRawBufferPointer(start: buffer, count: count)) { onChange(path) }
            }
        }

        /// The paths the events in `bytes` name: `struct inotify_event` records, each followed
        /// by its NUL-padded name.
        private func changedPaths(in bytes: UnsafeRawBufferPointer) -> [String] {
            let headerSize = MemoryLayout<inotify_event>.size
            var paths: [String] = []
            var offset = 0
            let folders = state.withLock { $0.folderByWatch }
            while offset + headerSize <= bytes.count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let name = bytes[(offset + headerSize)..<min(offset + headerSize + nameLength, bytes.count)].prefix { $0 != 0 }
                offset += headerSize + nameLength
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    paths += folders.values  // events were dropped: anything may have changed
                } else if let folder = folders[watch], !name.isEmpty {
                    paths.append(folder + "/" + String(decoding: name, as: UTF8.self))
                }
            }
            return paths
        }
    #endif
}

/// Why files cannot be watched.
public enum WatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This system cannot watch files (no inotify, or out of descriptors).
    case unavailable(String)
    /// A folder cannot be watched (it does not exist, or the per-user watch limit is reached:
    /// `fs.inotify.max_user_watches`).
    case cannotWatch(String, String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "cannot watch files: \(reason)"
        case .cannotWatch(let folder, let reason): "cannot watch \(folder): \(reason)"
        }
    }
}
