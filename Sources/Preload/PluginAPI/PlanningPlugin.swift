/// A loader plugin that must read its file while planning to know its dependencies (a font's
/// pages, a map's images, an atlas's sprites), and hands what it read to its own load rather
/// than keeping a cache: the engine keeps the plan's ``LoadPlan/note`` with that one request and
/// gives it to the load through ``LoadContext/planningNote(as:)``, then drops it with the load.
///
/// The batch calls ``plan(_:)`` where it would call ``LoaderPlugin/dependencies(of:)`` (which
/// this protocol answers from the plan, for tools that ask without a batch). A load without a
/// note (its plugin called by a tool, or a plan that failed) reads the file again:
///
/// ```swift
/// import Preload
///
/// struct ListLoader: PlanningPlugin {
///     let identifier = "list"
///     let assetKind = AssetKind(rawValue: "list")
///     let fileExtensions: Set<String> = ["list"]
///
///     func plan(_ request: PlannedRequest) throws -> LoadPlan<[String]> {
///         let names = try Self.names(in: request)
///         return LoadPlan(dependencies: names.map { AssetRequest(path: $0) }, note: names)
///     }
///
///     func load(_ context: LoadContext) throws -> any Asset {
///         let names = try context.planningNote(as: [String].self) ?? Self.names(in: context.request)
///         return DataAsset(bytes: AssetBytes(Array(names.joined(separator: "\n").utf8)))
///     }
///
///     static func names(in request: PlannedRequest) throws -> [String] {
///         String(decoding: try request.files.read(request.path).array, as: UTF8.self)
///             .split(separator: "\n").map(String.init)
///     }
/// }
/// ```
public protocol PlanningPlugin: LoaderPlugin {
    /// What planning read and the load wants again.
    associatedtype PlanningNote: Sendable

    /// The requests `request` depends on, with the note its load gets and, optionally, the
    /// work loading it is (``LoaderPlugin/estimatedWork(for:)``'s answer, known once the file
    /// is read). Throwing fails `request` with the error, before anything is loaded.
    func plan(_ request: PlannedRequest) throws -> LoadPlan<PlanningNote>
}

extension PlanningPlugin {
    /// The plan's dependencies (the note is dropped): for a tool asking without a batch.
    public func dependencies(of request: PlannedRequest) throws -> [AssetRequest] {
        try plan(request).dependencies
    }

    /// The plan with its note type erased, for the engine, which keeps it without reading it.
    func erasedPlan(_ request: PlannedRequest) throws -> LoadPlan<any Sendable> {
        let plan = try plan(request)
        return LoadPlan<any Sendable>(dependencies: plan.dependencies, note: plan.note, work: plan.work)
    }
}
