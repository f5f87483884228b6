/// A named run of an animation's frames, as Aseprite's tags mark them: `walk` is frames 0 to 5,
/// played forward, again and again.
public struct AnimationTag: Hashable, Sendable {
    /// How a tag plays its frames.
    public enum Direction: String, Hashable, Sendable, CaseIterable {
        /// First frame to last.
        case forward
        /// Last frame to first.
        case reverse
        /// First to last, then back towards the first (the ends shown once per turn).
        case pingPong = "ping-pong"
        /// Last to first, then back towards the last (the ends shown once per turn).
        case pingPongReverse = "ping-pong-reverse"
    }

    /// The tag's name (`walk`); names need not be unique, the first one wins a lookup.
    public var name: String
    /// The first frame of the run (an index into ``SpriteAnimation/frames``).
    public var from: Int
    /// The last frame of the run, inclusive, at least ``from``.
    public var to: Int
    /// The order the run plays in.
    public var direction: Direction
    /// How many times the run plays; 0 plays it forever. For ping-pong directions one play is
    /// one way: 2 plays there and back.
    public var repeatCount: Int
    /// The tag's user data (Aseprite draws a tag in its colour).
    public var userData: AnimationUserData

    /// A tag over frames `from...to`.
    public init(
        name: String, from: Int, to: Int, direction: Direction = .forward, repeatCount: Int = 0, userData: AnimationUserData = AnimationUserData()
    ) {
        self.name = name
        self.from = from
        self.to = to
        self.direction = direction
        self.repeatCount = repeatCount
        self.userData = userData
    }

    /// The frames of one period of the run, in play order, and how many frames a finite play
    /// shows (`nil`: forever). A ping-pong period is there and back without repeating the ends.
    func playOrder() -> (period: [Int], shown: Int?) {
        let run = Array(from...to), length = run.count
        switch direction {
        case .forward, .reverse:
            let period = direction == .forward ? run : run.reversed()
            return (period, repeatCount == 0 ? nil : repeatCount * length)
        case .pingPong, .pingPongReverse:
            let there = direction == .pingPong ? run : run.reversed()
            guard length > 1 else { return (there, repeatCount == 0 ? nil : 1) }
            let period = there + there.reversed().dropFirst().dropLast()
            return (period, repeatCount == 0 ? nil : repeatCount * (length - 1) + 1)
        }
    }
}
