/// An asset that stands for the files inside it (a data pack, a zip, a tar): its plugin (a
/// ``ContainerPlugin``) declared each entry as a dependency, `CONTAINER#ENTRY`, so every entry
/// loaded as an asset of its own, and the container is their listing. Tools that write a
/// batch's assets out take its entries, not it: a bake (`preload bake`, PreloadAuthoring's
/// `BakeWriter`) stores each entry under its own name and gives the container no entry, and
/// `preload --memory-budget` keeps a container whole, since its listing is what the command
/// shows of its entries. They ask `asset as? any ContainerAsset` and know no container kind; a
/// third party's container conforms the same way.
///
/// The question is all there is: the entries are the results loading the container gave its
/// caller (`PreloadReport.resultsByCaller`), so the protocol asks for nothing more.
///
/// ```swift
/// import Preload
///
/// struct Bundle: ContainerAsset {
///     var entries: [AssetOutcome]
///
///     var kind: AssetKind { "bundle" }
///     var byteCount: Int { entries.reduce(0) { $0 + ($1.asset?.byteCount ?? 0) } }
/// }
/// ```
public protocol ContainerAsset: Asset {}
