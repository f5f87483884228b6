import ArgumentParser

/// What every benchmark takes: the corpus, the threads on every side, the rounds to measure.
public struct CorpusOptions: ParsableArguments {
    @Argument(help: "The corpus directory (searched recursively).")
    public var corpus: String

    @Option(name: .shortAndLong, help: "Threads on every side.")
    public var jobs = 2

    @Option(help: "Measured rounds per side (medians are reported).")
    public var rounds = 6

    public init() {}
}
