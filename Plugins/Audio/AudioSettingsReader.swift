import Preload

/// Reads the audio plugin's settings, `"audio": {...}` in a manifest entry's `"options"` or
/// `--set audio.NAME=VALUE`, into ``AudioLoaderSettings``: `kind` (`"sound"`, `"music"`,
/// `"automatic"`), `samples` (`"int16"`, `"float32"`), `longestSoundSeconds`, `longestSeconds`;
/// and `spriteMap`, the JSON file of an audio sprite's markers (``AudioSpriteMap``).
///
/// `"audio": {"kind": "music", "samples": "float32", "longestSoundSeconds": 10, "longestSeconds": 3600}`
public struct AudioSettingsReader: PluginSettingsReader {
    /// A reader of `"audio"` settings.
    public init() {}

    /// `"audio"`, the plugin's identifier.
    public var key: String { "audio" }

    /// Sets `options` from the members given (those absent keep their values).
    public func read(_ values: PluginSettingsValues, into options: inout AssetOptions) throws {
        var audio = options[AudioLoaderSettings.self]
        if let kind = try values.string("kind", oneOf: AudioLoaderSettings.Kind.allCases.map(\.rawValue)) {
            audio.kind = AudioLoaderSettings.Kind(rawValue: kind)!
        }
        if let samples = try values.string("samples", oneOf: AudioSampleFormat.allCases.map(\.rawValue)) {
            audio.sampleFormat = AudioSampleFormat(rawValue: samples)!
        }
        if let seconds = try values.int("longestSoundSeconds", in: 0...86400) { audio.longestSound = .seconds(seconds) }
        if let seconds = try values.int("longestSeconds", in: 1...86400) { audio.longestDuration = .seconds(seconds) }
        if values.keys != ["spriteMap"] { options[AudioLoaderSettings.self] = audio }  // a sprite map alone leaves them unset
        if let map = try values.string("spriteMap") { options[AudioSpriteMap.self] = AudioSpriteMap(path: map) }
    }
}

extension AudioLoader: ConfigurablePlugin, InstalledFormatsPlugin {
    /// ``AudioSettingsReader``.
    public var settingsReader: any PluginSettingsReader { AudioSettingsReader() }

    /// ``AudioLoader/decodes(fileExtension:)-swift.type.method``: WAV always, the rest when their library is
    /// installed.
    public func decodes(fileExtension: String) -> Bool { Self.decodes(fileExtension: fileExtension) }
}
