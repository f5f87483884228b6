import CSDL2
import Foundation

/// Starts SDL's audio quietly on a machine without a sound card. There SDL settles on ALSA (its
/// library loads), and opening the device then fails inside libasound, which prints eight
/// `ALSA lib ...` lines to standard error before SDL reports the failure. So where no sound card
/// is listed (`/proc/asound/cards` missing or saying so) and `SDL_AUDIODRIVER` does not choose,
/// only the sound servers are tried (PulseAudio, then PipeWire: a container given the host's
/// socket plays through them); without either the example goes on silent, saying so in one
/// line. With a sound card, or `SDL_AUDIODRIVER` set (`disk`, `dummy`, ...), SDL chooses as usual.
enum AudioDriverChoice {
    /// The servers tried without a sound card, in SDL's own order.
    static let servers = ["pulseaudio", "pipewire"]

    /// Starts SDL's audio subsystem; `nil` when it started, else why not.
    static func start() -> String? {
        if ProcessInfo.processInfo.environment["SDL_AUDIODRIVER"] != nil || hasSoundCard {
            return SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 ? nil : "SDL_InitSubSystem(SDL_INIT_AUDIO): \(String(cString: SDL_GetError()))"
        }
        let available = Set((0..<SDL_GetNumAudioDrivers()).compactMap { SDL_GetAudioDriver($0).map { String(cString: $0) } })
        for server in servers where available.contains(server) {
            setenv("SDL_AUDIODRIVER", server, 1)
            defer { unsetenv("SDL_AUDIODRIVER") }
            if SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 { return nil }
        }
        return "no sound card and no sound server (\(servers.joined(separator: ", "))); SDL_AUDIODRIVER chooses a driver"
    }

    /// Whether the kernel lists a sound card (Linux); elsewhere, assumed.
    static var hasSoundCard: Bool {
        #if os(Linux)
            guard let cards = try? String(contentsOfFile: "/proc/asound/cards", encoding: .utf8) else { return false }
            return !cards.contains("no soundcards")
        #else
            return true
        #endif
    }
}
