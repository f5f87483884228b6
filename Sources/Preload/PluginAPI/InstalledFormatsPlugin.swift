/// A loader plugin some of whose formats load only where a library is installed (Ogg Vorbis
/// with libvorbisfile, MP3 with libmpg123): it says which do here, so that a reader choosing
/// among a file's encodings (a Phaser pack's `audio` entry lists several) picks one that loads.
public protocol InstalledFormatsPlugin: LoaderPlugin {
    /// Whether a file named with `fileExtension` (`"ogg"`) loads on this machine: its format is
    /// one the plugin reads and the library it needs is installed.
    func decodes(fileExtension: String) -> Bool
}
