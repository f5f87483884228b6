/// Single-file gzip (`.gz`).
public enum GzipFile {
    public static func index(at path: String) throws -> PackIndex {
        throw PackError.unsupported("gzip files are not read yet")
    }
}
