import CycleCore

/// One trace of the corpus: what HA showed for one appliance, in time order.
struct BenchTrace {
    /// File name or generated name, e.g. `dryer-slow-3`.
    var name: String
    /// The group it is reported under: `example` or the generator's scenario.
    var scenario: String
    /// The appliance's settings: the default tuning (only id and name set).
    var settings: ApplianceSettings
    var observations: [Observation]
    /// How many cycles the trace holds, when known (generated: always; examples: from
    /// their `.expect.json`), to check that the replay saw them all.
    var expectedCycles: Int?
}
