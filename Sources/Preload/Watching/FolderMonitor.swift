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
/// A watched folder is watched by its path, not its inode: when it is deleted or renamed away
/// (an exporter that wipes its output folder, a `git checkout`), the monitor reports its path
/// and watches its nearest existing ancestor instead, and when a folder of that path is there
/// again (created, or renamed in), watches it again and reports its path once more: anything
/// in it may be new.
///
/// One thread waits on the inotify descriptor and a wake-up pipe; ``stop()`` wakes it, waits
/// for it to end and closes both descriptors (the kernel drops every watch with the first).
final class FolderMonitor: Sendable {
    private struct State {
        /// The folders asked for, watched or waiting to exist again.
        var wanted: Set<String> = []
        /// Every kernel watch: the folders asked for that exist, and ancestors watched while a
        /// folder asked for is gone.
        var folderByWatch: [Int32: String] = [:]
        var watchByFolder: [String: Int32] = [:]
        var isStopped = false

        /// The folders asked for that are gone, waiting to exist again.
        var waiting: [String] { wanted.filter { watchByFolder[$0] == nil }.sorted() }
    }

    #if canImport(Glibc)
        private static let mask = UInt32(
            IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE_SELF | IN_MOVE_SELF
                | IN_ONLYDIR)
    #endif
    private let inotify: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let state = PreloadMutex(State())
    private let ended = DispatchSemaphore(value: 0)
    private let onChange: @Sendable (String) -> Void

    /// A monitor calling `onChange` (on its own thread) with each changed entry's path, with a
    /// folder's path when it is gone or back, or when the kernel dropped events (everything in
    /// it may have changed).
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

    /// How many folders asked for are watched (not those waiting to exist again).
    var folderCount: Int { state.withLock { state in state.wanted.count { state.watchByFolder[$0] != nil } } }

    /// Watches `folder` (an absolute path), once however often it is asked; a folder that does
    /// not exist is watched from when it does. Returns whether the folder was new to the monitor.
    @discardableResult
    func watch(folder: String) throws(WatchError) -> Bool {
        #if canImport(Glibc)
            return try state.withLock { (state) throws(WatchError) in
                guard !state.isStopped, state.wanted.insert(folder).inserted else { return false }
                let watch = inotify_add_watch(inotify, folder, Self.mask)
                guard watch >= 0 else {
                    guard errno == ENOENT || errno == ENOTDIR else {
                        state.wanted.remove(folder)
                        throw .cannotWatch(folder, String(cString: strerror(errno)))
                    }
                    _ = resume(&state)
                    return true
                }
                add(watch, folder, to: &state)
                return true
            }
        #else
            return false
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
                let paths = state.withLock { handle(UnsafeRawBufferPointer(start: buffer, count: count), in: &$0) }
                for path in paths { onChange(path) }
            }
        }

        /// The paths the events in `bytes` name (`struct inotify_event` records, each followed
        /// by its NUL-padded name), with folders gone and back; watches folders gone and back.
        private func handle(_ bytes: UnsafeRawBufferPointer, in state: inout State) -> [String] {
            let headerSize = MemoryLayout<inotify_event>.size
            var paths: [String] = []
            var offset = 0
            var resumes = false
            while offset + headerSize <= bytes.count {
                let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let name = bytes[(offset + headerSize)..<min(offset + headerSize + nameLength, bytes.count)].prefix { $0 != 0 }
                offset += headerSize + nameLength
                if mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    paths += state.wanted.sorted()  // events were dropped: anything may have changed
                    resumes = true
                    continue
                }
                guard let folder = state.folderByWatch[watch] else { continue }
                if mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    // The folder is gone (or moved, and the watch would follow it elsewhere).
                    if mask & UInt32(IN_MOVE_SELF) != 0 { inotify_rm_watch(inotify, watch) }
                    state.folderByWatch[watch] = nil
                    if state.watchByFolder[folder] == watch { state.watchByFolder[folder] = nil }
                    if state.wanted.contains(folder) { paths.append(folder) }
                    resumes = true
                } else if !name.isEmpty {
                    let path = folder + "/" + String(decoding: name, as: UTF8.self)
                    if state.wanted.contains(folder) { paths.append(path) }
                    if mask & UInt32(IN_ISDIR) != 0 && mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { resumes = true }
                }
            }
            if resumes { paths += resume(&state) }
            return paths
        }

        /// Watches again the folders asked for that are back, and for each one still gone, its
        /// nearest existing ancestor (whose events say when it comes back); stops watching
        /// ancestors no longer needed. Returns the folders watched again.
        private func resume(_ state: inout State) -> [String] {
            var back: [String] = []
            var ancestors = Set<String>()
            for folder in state.waiting {
                // A few rounds: a folder made between two looks (`mkdir -p`) is looked at again.
                for _ in 0..<8 {
                    let watch = inotify_add_watch(inotify, folder, Self.mask)
                    if watch >= 0 {
                        add(watch, folder, to: &state)
                        back.append(folder)
                        break
                    }
                    guard let (ancestor, child) = watchAncestor(of: folder, in: &state) else { break }
                    ancestors.insert(ancestor)
                    guard access(child, F_OK) == 0 else { break }  // still gone: the ancestor's events will tell
                }
            }
            for (folder, watch) in state.watchByFolder where !state.wanted.contains(folder) && !ancestors.contains(folder) {
                inotify_rm_watch(inotify, watch)
                state.watchByFolder[folder] = nil
                state.folderByWatch[watch] = nil
            }
            return back
        }

        /// Watches the nearest existing ancestor of `folder`; returns it with its child on the
        /// way to `folder`, or `nil` if none can be watched.
        private func watchAncestor(of folder: String, in state: inout State) -> (String, String)? {
            var child = folder
            while true {
                let parent = (child as NSString).deletingLastPathComponent
                guard parent != child, !parent.isEmpty else { return nil }
                if state.watchByFolder[parent] != nil { return (parent, child) }
                let watch = inotify_add_watch(inotify, parent, Self.mask)
                if watch >= 0 {
                    add(watch, parent, to: &state)
                    return (parent, child)
                }
                child = parent
            }
        }

        private func add(_ watch: Int32, _ folder: String, to state: inout State) {
            state.watchByFolder[folder] = watch
            state.folderByWatch[watch] = folder
        }
    #endif
}

/// Why files cannot be watched.
public enum WatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// This system cannot watch files (no inotify, or out of descriptors).
    case unavailable(String)
    /// A folder cannot be watched (the per-user watch limit is reached:
    /// `fs.inotify.max_user_watches`, or it cannot be read).
    case cannotWatch(String, String)

    public var description: String {
        switch self {
        case .unavailable(let reason): "cannot watch files: \(reason)"
        case .cannotWatch(let folder, let reason): "cannot watch \(folder): \(reason)"
        }
    }
}
