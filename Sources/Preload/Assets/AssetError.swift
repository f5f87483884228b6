/// Why one asset did not load: the file it concerns and the cause, in words and as a category.
///
/// Every failure the coordinator reports is an `AssetError`. A plugin's own error stays
/// reachable through ``underlying`` for code that wants to match on it; its ``category`` comes
/// from ``AssetFailure/category`` when the plugin's error type adopts ``AssetFailure``.
public struct AssetError: Error, Sendable, CustomStringConvertible {
    /// Broad classes of failure that callers can act on without knowing the plugin.
    public enum Category: String, Sendable, Hashable {
        /// The file does not exist.
        case fileNotFound
        /// The file exists but cannot be read (permissions, I/O error, not a regular file).
        case unreadable
        /// A remote file (an `http` or `https` URL) could not be downloaded: an HTTP status that
        /// is final (404, 403), a transfer that failed after its retries or stalled, a redirect
        /// refused, no ``RemoteFetching`` configured. Bytes that do not match the size or SHA-256
        /// promised for them are ``corrupt``.
        case download
        /// No registered plugin claims the file, or the requested plugin is not registered.
        case noLoader
        /// The content is valid but uses a feature the loader does not support.
        case unsupported
        /// A system library the loader opens at run time is not installed, or is too old
        /// (``MissingSystemLibrary`` names it and the package that provides it).
        case libraryMissing
        /// The content is damaged or is not what its name says.
        case corrupt
        /// The content ends early.
        case truncated
        /// The asset is larger than a configured limit.
        case limitExceeded
        /// An asset this one depends on failed.
        case dependencyFailed
        /// Requests depend on each other in a cycle.
        case dependencyCycle
        /// The file has an irregularity that loads with a warning, and the batch is strict
        /// (``PreloadOptions/isStrict``).
        case strict
        /// Anything else a plugin reported.
        case other
    }

    /// The file, as the request named it.
    public let path: String
    /// What kind of failure it is (missing file, damaged data, a limit, ...), for handling it in code.
    public let category: Category
    /// The cause, in words, without the path.
    public let reason: String
    /// The plugin's own error, when there was one.
    public let underlying: (any Error & Sendable)?

    /// An error for the file at `path`, with a `reason` a person can read and the error that caused it, if any.
    public init(path: String, category: Category, reason: String, underlying: (any Error & Sendable)? = nil) {
        self.path = path
        self.category = category
        self.reason = reason
        self.underlying = underlying
    }

    /// Wraps whatever a plugin threw for the file at `path`.
    public init(path: String, wrapping error: any Error) {
        if let error = error as? AssetError {
            self =
                error.path == path
                ? error
                : AssetError(
                    path: path, category: error.category, reason: error.description, underlying: error)
        } else if let failure = error as? any AssetFailure {
            self.init(path: path, category: failure.category, reason: failure.description, underlying: failure)
        } else {
            self.init(path: path, category: .other, reason: "\(error)", underlying: SendableErrorDescription(error))
        }
    }

    public var description: String { "\(path): \(reason)" }
}

/// An error type a plugin throws that knows its ``AssetError/Category``.
public protocol AssetFailure: Error, Sendable, CustomStringConvertible {
    var category: AssetError.Category { get }
}

/// The text of an error that is not `Sendable`, kept so it can cross threads.
package struct SendableErrorDescription: Error, Sendable, CustomStringConvertible {
    package let description: String
    package let typeName: String

    package init(_ error: any Error) {
        description = "\(error)"
        typeName = "\(type(of: error))"
    }
}

extension AssetError {
    /// The error, naming `url` where it named `local` (a fetched file's copy: the caller knows
    /// the URL).
    func naming(_ url: String, for local: String) -> AssetError {
        guard path == local else { return self }
        return AssetError(path: url, category: category, reason: reason, underlying: underlying)
    }

    /// The file at `path` fails because `dependency`, a file it needs, failed: what a plugin
    /// that tolerates failed dependencies (``LoaderPlugin/toleratesFailedDependencies``) throws
    /// for one it cannot do without, as the engine fails the file of any other plugin.
    public static func dependencyFailed(path: String, dependency: AssetError) -> AssetError {
        AssetError(
            path: path, category: .dependencyFailed,
            reason: "needs \(dependency.path), which failed: \(dependency.reason)", underlying: dependency)
    }

    static func dependencyCancelled(path: String, dependency: String) -> AssetError {
        AssetError(path: path, category: .dependencyFailed, reason: "needs \(dependency), which was cancelled")
    }
}
