/// Zip archives (stored and deflate entries).
public enum ZipFile {
    public static func index(at path: String) throws -> PackIndex {
        throw PackError.unsupported("zip archives are not read yet")
    }
}
