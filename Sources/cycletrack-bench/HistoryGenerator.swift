import CycleCore
import CycleHistory
import HomeAssistantAPI
import CycleService
import CycleCommands
import FoundationEssentials

/// Phase 4, first half: a history database of `cycles` cycles of the household's ten
/// appliances, evenly over the `years` before now (so the last 30 days hold cycles
/// too), written through `HistoryStore`'s public API in batched transactions. Each
/// cycle is a replayed corpus cycle of a matching kind, moved to its time: its
/// observations (thinned to one per `spacing` seconds plus every state change), every
/// call the planner made for it (as sent), its predicted finishes, progress and energy.
struct HistoryGenerator {
    var cycles = 0
    var observations = 0
    var pushes = 0
    var seconds = 0.0
    /// Changed observations the cycles had before thinning: what a service polling
    /// faster than the appliances report would have stored.
    var unthinnedObservations = 0
    /// Seconds spent in `recordObservation` and in `recordPush`, for their rates.
    var observationSeconds = 0.0
    var pushSeconds = 0.0

    static let spacing = 600.0
    static let batch = 250

    static func generate(path: String, cycles total: Int, years: Double, corpus: TraceCorpus, seed: UInt64,
                         now: Date) throws(BenchError) -> HistoryGenerator {
        let appliances = HouseholdAppliance.all
        var templates: [String: [CycleTemplate]] = [:]
        for appliance in appliances {
            let traces = corpus.traces.filter { appliance.scenarios.contains($0.scenario) }
            templates[appliance.id] = traces.flatMap { CycleTemplate.make(from: $0, spacing: spacing) }
            if templates[appliance.id]?.isEmpty ?? true {
                throw BenchError("no corpus cycle for appliance \(appliance.id) (scenarios \(appliance.scenarios))")
            }
        }
        var rng = SplitMix64(seed: seed)
        let span = years * 365.25 * 86_400
        let perAppliance = max(1, total / appliances.count)
        let slot = span / Double(perAppliance)
        let origin = now.addingTimeInterval(-span)
        var result = HistoryGenerator()
        var energy = [Double](repeating: 0, count: appliances.count)
        let timer = Stopwatch()
        do {
            let store = try HistoryStore(path: path)
            for appliance in appliances {
                try store.upsertAppliance(id: appliance.id, name: appliance.name, at: origin)
            }
            var index = 0
            while index < perAppliance {
                let upper = min(perAppliance, index + batch / appliances.count + 1)
                try store.transaction {
                    for slotIndex in index..<upper {
                        for (number, appliance) in appliances.enumerated() where result.cycles < total {
                            // Invariant: every appliance got a non-empty list above.
                            let template = rng.pick(templates[appliance.id] ?? [])
                            // Within the slot, early enough to end before `now` (the last slot shrinks).
                            let room = max(0, slot - template.duration - 60)
                            let start = origin.addingTimeInterval(Double(slotIndex) * slot + rng.double(0...max(0, room)))
                            let kWh = appliance.hasTemperature ? nil : Optional(rng.double(0.3...1.6))
                            try result.store(template, of: appliance.id, at: start, energyStart: energy[number],
                                             used: kWh, in: store)
                            energy[number] += kWh ?? 0
                        }
                    }
                }
                index = upper
            }
        } catch {
            throw BenchError("writing the history database \(path) failed: \(error)")
        }
        result.seconds = timer.seconds
        return result
    }

    private mutating func store(_ template: CycleTemplate, of applianceID: String, at start: Date, energyStart: Double,
                                used kWh: Double?, in store: HistoryStore) throws {
        func time(_ offset: Double) -> Date { start.addingTimeInterval(offset) }
        let id = try store.openCycle(applianceID: applianceID, program: template.program, startedAt: start, source: .run)
        let observing = Stopwatch()
        for row in template.rows {
            var states = row.states
            if kWh != nil { states[.energy] = Summary.fixed(energyStart + (kWh ?? 0) * row.offset / template.duration, 3) }
            if try store.recordObservation(applianceID: applianceID, cycleID: id, at: time(row.offset), states: states) != nil {
                observations += 1
            }
        }
        observationSeconds += observing.seconds
        let pushing = Stopwatch()
        for push in template.pushes {
            _ = try store.recordPush(cycleID: id, applianceID: applianceID, at: time(push.offset), kind: push.kind,
                                     reason: push.reason, body: push.body, status: .sent)
        }
        pushSeconds += pushing.seconds
        pushes += template.pushes.count
        unthinnedObservations += template.changedObservations
        try store.updateCycle(id: id, program: template.program,
                              firstPredictedFinish: template.firstPredictedFinish.map(time),
                              lastPredictedFinish: template.lastPredictedFinish.map(time),
                              maxProgress: template.maxProgress, energyStart: kWh == nil ? nil : energyStart)
        try store.closeCycle(id: id, endedAt: time(template.duration), outcome: template.outcome,
                             energyEnd: kWh.map { energyStart + $0 })
        cycles += 1
    }
}
