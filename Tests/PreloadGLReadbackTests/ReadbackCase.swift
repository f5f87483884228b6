import PreloadGLReadback
import Testing

/// One way to read a texture back: an API's shared context and a method. Every block test runs
/// once per case, so glGetTexImage and drawing (texelFetch into a framebuffer) check each other.
struct ReadbackCase: Sendable, CustomTestStringConvertible {
    let api: GLReadback.API
    let method: GLReadback.Method

    /// Desktop GL read both ways, and GL ES by drawing.
    static let all = [
        ReadbackCase(api: .desktopCore, method: .getTexImage), ReadbackCase(api: .desktopCore, method: .draw),
        ReadbackCase(api: .es, method: .draw),
    ]

    /// The shared context of the case's API.
    func context() throws -> GLReadback {
        try (api == .es ? GLReadback.es : GLReadback.desktop).get()
    }

    var testDescription: String { "\(api), \(method)" }

    /// Whether the machine can open both contexts (libEGL and a Mesa driver): the tests that need
    /// OpenGL are enabled on this, and skipped (saying why) where it is false.
    static let available: Bool = {
        if case .failure = GLReadback.desktop { return false }
        if case .failure = GLReadback.es { return false }
        return true
    }()
}
