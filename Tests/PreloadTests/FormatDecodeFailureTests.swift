import Preload  // public API only: what a third-party decoder's error adopts
import Testing

/// `FormatDecodeFailure`: a plugin's error worded and categorised by `DecodeFailure`, in the
/// words every first-party decoder said before it had one shape.
@Suite struct FormatDecodeFailureTests {
    /// A third party's decoder error, every case of the template and one of its own.
    enum SampleError: FormatDecodeFailure, Equatable {
        case emptyFile, notSample, truncated(String), corrupt(String), unsupported(String), tooLarge(String), outOfMemory
        case tooManyLayers(Int)

        static let wording = DecodeFailureWording(format: "JPEG", missingSignature: "no SOI marker")

        var failure: DecodeFailure {
            switch self {
            case .emptyFile: .emptyFile
            case .notSample: .notFormat
            case .truncated(let detail): .truncated(detail)
            case .corrupt(let detail): .corrupt(detail)
            case .unsupported(let detail): .unsupported(detail)
            case .tooLarge(let detail): .tooLarge(detail)
            case .outOfMemory: .outOfMemory
            case .tooManyLayers(let count): .specific(.limitExceeded, "\(count) layers, more than 16")
            }
        }
    }

    @Test func wordsEachFailureAsTheDecodersDid() {
        let expected: [(SampleError, String, AssetError.Category)] = [
            (.emptyFile, "empty file, not a JPEG", .truncated),
            (.notSample, "not a JPEG file (no SOI marker)", .corrupt),
            (.truncated("x"), "truncated JPEG: x", .truncated),
            (.corrupt("x"), "corrupt JPEG: x", .corrupt),
            (.unsupported("x"), "unsupported JPEG: x", .unsupported),
            (.tooLarge("x"), "JPEG too large: x", .limitExceeded),
            (.outOfMemory, "out of memory while decoding JPEG", .other),
            (.tooManyLayers(20), "20 layers, more than 16", .limitExceeded),
        ]
        for (error, words, category) in expected {
            #expect(error.description == words)
            #expect(error.category == category)
        }
        let qoi = DecodeFailureWording(format: "QOI", oneOf: "a QOI image", missingSignature: "no 'qoif' signature")
        #expect(DecodeFailure.emptyFile.description(qoi) == "empty file, not a QOI image")
    }

    @Test func theEngineAddsTheFile() {
        let error = AssetError(path: "art/hero.jpg", wrapping: SampleError.truncated("the data ends in the scan"))
        #expect(error.description == "art/hero.jpg: truncated JPEG: the data ends in the scan")
        #expect(error.category == .truncated)
        #expect(error.underlying as? SampleError == .truncated("the data ends in the scan"))
    }
}
