import Preload

/// Whether `path` is a folder (following symbolic links), for checking the command's arguments.
func isFolder(_ path: String) -> Bool {
    (try? FileFacts.of(path: path))?.isDirectory == true
}
