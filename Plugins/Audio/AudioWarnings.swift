import Preload

extension AssetWarning.Code {
    /// The WAV's data chunk says it is 0 or 0xFFFFFFFF bytes long (a recorder that never went
    /// back to write the size); the rest of the file was taken as its samples, as players do.
    public static let wavUnsetDataSize: AssetWarning.Code = "wav.unset-data-size"
    /// The WAV's data ends inside a frame; the partial frame was dropped.
    public static let wavPartialFrame: AssetWarning.Code = "wav.partial-frame"
    /// Bytes follow the end of the RIFF chunk; they were ignored, as players ignore them.
    public static let wavTrailingData: AssetWarning.Code = "wav.trailing-data"
    /// A chunk after the data chunk runs past the end of the file; the samples are complete and
    /// the chunk was ignored.
    public static let wavTruncatedTrailingChunk: AssetWarning.Code = "wav.truncated-trailing-chunk"
    /// The Ogg stream's last page is not marked end-of-stream: every page is whole, but the file
    /// may have been cut at a page boundary (or its muxer never marked the end); the samples of
    /// its pages were loaded, as players play them.
    public static let oggUnmarkedEnd: AssetWarning.Code = "ogg.unmarked-end"
}
