/// The error `body` throws when it is an `E` (a decoder's own error, `ImageLimitExceeded`);
/// `nil` when `body` returns, or throws something else.
///
/// ```swift
/// import Preload
/// import PreloadTestSupport
///
/// let tooLarge = thrownError(ImageLimitExceeded.self) {
///     try ImageLimits(maxWidth: 10).check(ImageSize(width: 11, height: 1))
/// }
/// print(tooLarge?.category == .limitExceeded)  // true
/// ```
public func thrownError<E: Error>(_ type: E.Type, by body: () throws -> Void) -> E? {
    do {
        try body()
        return nil
    } catch {
        return error as? E
    }
}
