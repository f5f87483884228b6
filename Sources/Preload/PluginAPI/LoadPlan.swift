/// What a ``PlanningPlugin`` found planning one request: what it depends on, what its load
/// should get back (``LoadContext/planningNote(as:)``), and how much work loading it is.
public struct LoadPlan<Note: Sendable>: Sendable {
    /// The requests to load first (``LoaderPlugin/dependencies(of:)``).
    public var dependencies: [AssetRequest]
    /// What the load gets back: kept by the engine for this request alone, dropped with its load.
    public var note: Note
    /// The work loading the request is, in the units of the batch's progress (bytes); `nil`
    /// asks ``LoaderPlugin/estimatedWork(for:)``.
    public var work: Int64?

    /// A plan declaring `dependencies`, handing `note` to the load, with `work` if known.
    public init(dependencies: [AssetRequest], note: Note, work: Int64? = nil) {
        self.dependencies = dependencies
        self.note = note
        self.work = work
    }
}
