import Dispatch
import Testing

@testable import Preload

/// The storage under a batch's ``PlannedTable``: slots that never move once written.
@Suite struct StableSlotsTests {
    @Test func slotsPastTheFirstSegmentKeepTheirValuesAndPlaces() {
        let slots = StableSlots<String>(first: 3, empty: "")
        #expect(slots[0] == "" && slots[2] == "" && slots[3] == "" && slots[1_000_000] == "" && slots[-1] == "")
        slots.write("zero", at: 0)
        let early = slots.slot(0)
        for index in 1..<200 { slots.write("\(index)", at: index) }
        #expect(slots.slot(0) == early, "making later segments moves nothing")
        #expect((0..<200).map { slots[$0] } == ["zero"] + (1..<200).map { "\($0)" })
        #expect(slots[200] == "" && slots[383] == "", "past what was written: empty")
    }

    /// Planning threads write the first segment at their own numbers while loads read what was
    /// written before them (run under ThreadSanitizer by `.ci/run`'s sanitizer job).
    @Test func threadsWriteTheFirstSegmentAtTheirOwnNumbers() {
        let slots = StableSlots<[Int]>(first: 10_000, empty: [])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in stride(from: thread, to: 10_000, by: 4) { slots.write([index, thread], at: index) }
        }
        #expect((0..<10_000).allSatisfy { slots[$0] == [$0, $0 % 4] })
    }
}
