import CPreloadGIF
import Preload

/// giflib's decoder, opened at run time (`libgif.so.7`, Debian's `libgif7`, on a fresh machine):
/// the functions the GIF loader calls, resolved once for the process.
///
/// Opening it at run time, not linking it, lets the package build on a machine with giflib's
/// run-time library but not its headers, and lets a game start on a machine without giflib: its
/// GIFs then fail with `MissingSystemLibrary` naming the package, its other assets load. The
/// types come from `CPreloadGIF` (giflib 5.x's structures).
struct GIFLibrary: SystemLibraryBinding, @unchecked Sendable {  // C function pointers, immutable once resolved
    static let location = SystemLibraryLocation("giflib", soname: "libgif.so.7", debian: "libgif7", dylib: "libgif.dylib", homebrew: "giflib")
    static let shared = opened()

    /// `DGifOpen`: reads the header, the logical screen and the global colour table.
    let openFile: PreloadDGifOpen
    /// `DGifCloseFile`: frees what giflib holds for the file.
    let close: PreloadDGifCloseFile
    /// `DGifGetRecordType`: what the next record is.
    let recordType: PreloadDGifGetRecordType
    /// `DGifGetImageDesc`: an image descriptor and its local colour table.
    let imageDescriptor: PreloadDGifGetImageDesc
    /// `DGifGetLine`: the next row of the image's colour indexes (LZW decoded).
    let line: PreloadDGifGetLine
    /// `DGifGetExtension`: an extension's label and first data block.
    let extensionStart: PreloadDGifGetExtension
    /// `DGifGetExtensionNext`: an extension's next data block (`nil` after the last).
    let extensionNext: PreloadDGifGetExtensionNext
    /// `DGifGetCode`: an image's first block of LZW codes (to pass over an image of no pixels).
    let codeStart: PreloadDGifGetCode
    /// `DGifGetCodeNext`: an image's next block of codes (`nil` after the last).
    let codeNext: PreloadDGifGetCodeNext
    /// `DGifExtensionToGCB`: a Graphic Control Extension's fields.
    let graphicsControl: PreloadDGifExtensionToGCB
    /// `GifErrorString`: giflib's words for an error code.
    let errorString: PreloadGifErrorString

    init(resolving library: SystemLibrary) throws(MissingSystemLibrary) {
        openFile = try library.function("DGifOpen")
        close = try library.function("DGifCloseFile")
        recordType = try library.function("DGifGetRecordType")
        imageDescriptor = try library.function("DGifGetImageDesc")
        line = try library.function("DGifGetLine")
        extensionStart = try library.function("DGifGetExtension")
        extensionNext = try library.function("DGifGetExtensionNext")
        codeStart = try library.function("DGifGetCode")
        codeNext = try library.function("DGifGetCodeNext")
        graphicsControl = try library.function("DGifExtensionToGCB")
        errorString = try library.function("GifErrorString")
    }

    /// giflib's words for `code` ("Data is not in GIF format").
    func message(_ code: Int32) -> String {
        code == 0 ? "stopped without an error code" : errorString(code).map { String(cString: $0) } ?? "error \(code)"
    }
}
