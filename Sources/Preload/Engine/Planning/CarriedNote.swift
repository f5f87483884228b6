/// What a ``PlanningPlugin``'s plan hands its load (``LoadContext/planningNote(as:)``), carried
/// by reference from the plan to the batch's ``PlanningNotes`` and on to the load's context.
///
/// A reference, not an `(any Sendable)?` field: an existential held inline makes the value that
/// holds it address-only, so every ``ResolvedRequest`` (most of which carry no note) would be
/// copied through value witnesses instead of a few loads and a retain.
final class CarriedNote: Sendable {
    /// The note, its type erased: the load asks for it by type.
    let value: any Sendable

    init(_ value: any Sendable) {
        self.value = value
    }
}
