/// What the first bytes of a file say about whether it is a plugin's
/// (``LoaderPlugin/signatureMatch(_:)``).
public enum SignatureMatch: Sendable {
    /// The file is this plugin's kind.
    case matches
    /// The file is not this plugin's kind.
    case differs
    /// These bytes end before they tell (a JSON object whose telling keys come after a long
    /// array): the claim reads a longer prefix, up to ``LoaderPlugin/signatureReach``, and asks
    /// again. At the file's end, or at the reach, the file is not the plugin's.
    case undecided
}
