import Preload

/// Why ``GLReadback`` could not open a context or read a texture back, with the words of the
/// harness (and the driver) in ``message``.
///
/// ``isUnavailable`` tells a machine without OpenGL (no libEGL, no Mesa driver, no context of the
/// API) from a texture the driver rejects: a test skips on the first and fails on the second.
public struct GLReadbackError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// `libEGL.so.1` is not installed (``GLReadbackError/missingLibrary`` names the package).
        case missingLibrary
        /// EGL opened no display: no driver (Mesa's EGL vendor, `libegl-mesa0`, and its DRI
        /// drivers, `libgl1-mesa-dri`).
        case noDisplay
        /// The display has no context of the API and version asked for.
        case noContext
        /// The context lacks a function the harness calls.
        case missingFunction
        /// The driver does not list the format: a wrong block cannot be told from no support.
        case unsupportedFormat
        /// The request itself is wrong: a format the harness does not know, a size, a level
        /// count, or a byte count that does not match them.
        case badArgument
        /// A GL call raised an error: ``GLReadbackError/glError`` holds its code (a block
        /// the driver rejects, a size it cannot take).
        case glError
        /// The framebuffer or shader that reads levels by drawing could not be set up.
        case drawFailed
    }

    /// What went wrong.
    public let kind: Kind
    /// The harness's words: the step, the GL error's name, the driver.
    public let message: String
    /// The first `glGetError` code met (`GL_INVALID_VALUE` is 0x0501...), 0 for none.
    public let glError: UInt32
    /// The missing library, for ``Kind/missingLibrary``.
    public let missingLibrary: MissingSystemLibrary?

    /// An error of `kind`.
    public init(kind: Kind, message: String, glError: UInt32 = 0, missingLibrary: MissingSystemLibrary? = nil) {
        self.kind = kind
        self.message = message
        self.glError = glError
        self.missingLibrary = missingLibrary
    }

    /// Whether this machine cannot run the harness at all (no library, no driver, no context of
    /// the API): tests skip then, naming ``description``.
    public var isUnavailable: Bool {
        switch kind {
        case .missingLibrary, .noDisplay, .noContext, .missingFunction: return true
        case .unsupportedFormat, .badArgument, .glError, .drawFailed: return false
        }
    }

    public var description: String {
        if let missingLibrary { return "OpenGL read-back \(missingLibrary)" }
        return "OpenGL read-back: \(message)"
    }
}
