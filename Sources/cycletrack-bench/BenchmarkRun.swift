import FoundationEssentials

/// Runs the five phases in order, printing progress to stderr, and the tables to
/// stdout: per scenario, the history breakdown, then the summary and the machine line.
struct BenchmarkRun {
    let options: BenchOptions
    let paths: BenchPaths

    /// The process's exit status: 0, or 1 when a cycle went over the per-cycle budget.
    func run() throws(BenchError) -> Int32 {
        var table = ResultTable()
        var sections: [String] = []
        let workspace = try BenchWorkspace()
        defer {
            if options.keepFiles { Console.progress("files kept in \(workspace.directory)") } else { workspace.remove() }
        }

        Console.progress("phase 1/5: pushes per cycle")
        let tracesDirectory = paths.tracesDirectory(options.tracesDirectory)
        let corpus = try TraceCorpus.load(examplesIn: tracesDirectory, seed: options.seed)
        if let note = corpus.note { Console.progress(note) }
        let pushes = PushCountBenchmark.run(corpus)
        addPushRows(pushes, corpus: corpus, to: &table)

        Console.progress("phase 2/5: planner throughput")
        let throughput = ThroughputBenchmark.run(corpus, targetSeconds: options.throughputSeconds)
        table.add("planner throughput (ApplianceTracker, release)",
                  "\(Summary.grouped(Int(throughput.perSecond))) obs/s (\(Summary.fixed(throughput.microsecondsPerObservation, 2)) µs/obs, "
                      + "\(throughput.passes) passes, \(Summary.fixed(throughput.seconds, 2)) s)")

        Console.progress("phase 3/5: service footprint, \(Summary.fixed(options.footprintSeconds, 0)) s of `cycletrack run`")
        try addFootprintRows(workspace: workspace, to: &table)

        Console.progress("phase 4/5: history of \(Summary.grouped(options.historyCycles)) cycles")
        let database = workspace.path("history.sqlite")
        sections.append(try addHistoryRows(database: database, corpus: corpus, workspace: workspace, to: &table))

        Console.progress("phase 5/5: start-up")
        let harness = try ServiceHarness(workspace: workspace, binary: paths.cycletrack, appliances: HouseholdAppliance.all,
                                         pollSeconds: 1, name: "startup")
        let startup = try StartupBenchmark.run(harness: harness, historyDatabase: database, workspace: workspace,
                                               repetitions: options.repetitions)
        table.add("start-up to first poll, \(Summary.grouped(options.historyCycles))-cycle database (median of \(options.repetitions))",
                  Summary.fixed(Summary.median(startup.withHistory) ?? 0, 1) + " ms (max " + Summary.fixed(startup.withHistory.max() ?? 0, 1) + " ms)")
        table.add("start-up to first poll, new empty database (median of \(options.repetitions))",
                  Summary.fixed(Summary.median(startup.withEmptyDatabase) ?? 0, 1) + " ms (max " + Summary.fixed(startup.withEmptyDatabase.max() ?? 0, 1) + " ms)")
        table.add("start-up runs stopped by SIGTERM", startup.badStops.isEmpty ? "all exit 0" : startup.badStops.joined(separator: "; "),
                  target: "exit 0", met: startup.badStops.isEmpty)

        print("Pushes per cycle by scenario (default tuning; naive = a push per observed change, +start +end)")
        print(pushes.scenarioTable().text)
        sections.forEach { print($0) }
        print(table.text)
        print(MachineInfo.line())
        if let note = corpus.note { print("note: \(note)") }
        let over = pushes.overBudget
        guard over.isEmpty else {
            let list = over.map { "\($0.trace) (\($0.calls) calls)" }.joined(separator: ", ")
            Console.writeError("cycletrack-bench: per-cycle budget of \(pushes.limit) calls exceeded by: \(list)\n")
            return 1
        }
        return 0
    }

    private func addPushRows(_ pushes: PushCountBenchmark, corpus: TraceCorpus, to table: inout ResultTable) {
        let examples = corpus.traces.filter { $0.scenario == "example" }.count
        table.add("corpus", "\(corpus.traces.count) traces (\(examples) examples, \(corpus.traces.count - examples) generated), "
                  + "\(pushes.cycles.count) cycles, \(Summary.grouped(corpus.observationCount)) observations")
        table.add("cycles found as the traces hold them", "\(corpus.traces.count - pushes.mismatches.count)/\(corpus.traces.count) traces"
                  + (pushes.mismatches.isEmpty ? "" : ": " + pushes.mismatches.joined(separator: "; ")),
                  target: "all", met: pushes.mismatches.isEmpty)
        table.add("pushes per cycle, median", Summary.count(pushes.medianCalls))
        table.add("pushes per cycle, max", String(pushes.maxCalls), target: "<= \(pushes.limit) on every cycle",
                  met: pushes.overBudget.isEmpty)
        table.add("naive pushes per cycle, median / max", "\(Summary.count(pushes.medianNaive)) / \(pushes.maxNaive)")
        let ratio = pushes.medianCalls > 0 ? pushes.medianNaive / pushes.medianCalls : 0
        table.add("naive / planner (ratio of medians)", Summary.fixed(ratio, 1) + "x")
    }

    private func addFootprintRows(workspace: BenchWorkspace, to table: inout ResultTable) throws(BenchError) {
        let harness = try ServiceHarness(workspace: workspace, binary: paths.cycletrack, appliances: HouseholdAppliance.all,
                                         pollSeconds: 1, name: "footprint")
        let footprint = try FootprintBenchmark.run(harness: harness, workspace: workspace, seconds: options.footprintSeconds,
                                                   seed: options.seed)
        let mebibyte = 1_048_576.0
        table.add("footprint run (10 appliances, poll 1 s, last 20% idle)",
                  "\(Summary.fixed(footprint.seconds, 0)) s, \(footprint.polls) polls, \(footprint.pushes) pushes, "
                      + "\(footprint.cyclesDriven) cycles driven")
        table.add("service peak resident (VmHWM)", Summary.mebibytes(footprint.peakResidentBytes),
                  target: "< 16 MiB", met: footprint.peakResidentBytes < 16 * mebibyte)
        table.add("service steady resident (median VmRSS, 2nd half)", Summary.mebibytes(footprint.steadyResidentBytes),
                  target: "< 16 MiB", met: footprint.steadyResidentBytes < 16 * mebibyte)
        table.add("resident at the end: anonymous (RssAnon) / mapped files (RssFile)",
                  Summary.mebibytes(footprint.anonymousBytes) + " / " + Summary.mebibytes(footprint.fileBytes))
        func perTick(_ stretch: FootprintBenchmark.Stretch) -> String {
            let error = stretch.ticks > 0 ? footprint.cpuResolutionSeconds / Double(stretch.ticks) : 0
            return Summary.fixed(stretch.perTick * 1000, 3) + " ms ± " + Summary.fixed(error * 1000, 3)
                + " over \(stretch.ticks) ticks"
        }
        table.add("CPU per poll tick, 10 appliances changing every poll", perTick(footprint.busy),
                  target: "< 1 ms", met: footprint.busy.ticks > 0 && footprint.busy.perTick < 0.001)
        table.add("CPU per poll tick, all idle (nothing changes)", perTick(footprint.idle))
        table.add("CPU per poll tick, whole run (start-up included)",
                  Summary.fixed(footprint.cpuSeconds / Double(max(footprint.polls, 1)) * 1000, 3) + " ms ("
                      + Summary.fixed(footprint.cpuSeconds, 2) + " s / \(footprint.polls) polls)")
        let stopped = footprint.exitStatus.map(\.description) ?? "did not exit within 15 s (killed)"
        table.add("shutdown on SIGTERM", "\(stopped) after \(Summary.fixed(footprint.shutdownSeconds * 1000, 0)) ms",
                  target: "exit 0", met: footprint.exitStatus == .exited(0))
    }

    private func addHistoryRows(database: String, corpus: TraceCorpus, workspace: BenchWorkspace,
                                to table: inout ResultTable) throws(BenchError) -> String {
        let generated = try HistoryGenerator.generate(path: database, cycles: options.historyCycles, years: 30, corpus: corpus,
                                                      seed: options.seed, now: Date())
        let rows = generated.observations + generated.pushes + 2 * generated.cycles
        table.add("history generated through HistoryStore",
                  "\(Summary.grouped(generated.cycles)) cycles, \(Summary.grouped(generated.observations)) observations, "
                      + "\(Summary.grouped(generated.pushes)) pushes in \(Summary.fixed(generated.seconds, 1)) s "
                      + "(\(Summary.grouped(Int(Double(rows) / max(generated.seconds, 1e-9)))) rows/s)")
        table.add("store insert rate: recordObservation / recordPush",
                  "\(Summary.grouped(Int(Double(generated.observations) / max(generated.observationSeconds, 1e-9)))) / "
                      + "\(Summary.grouped(Int(Double(generated.pushes) / max(generated.pushSeconds, 1e-9)))) rows/s")
        table.add("observations kept per cycle (unthinned would be)",
                  Summary.fixed(Double(generated.observations) / Double(max(generated.cycles, 1)), 1) + " ("
                      + Summary.fixed(Double(generated.unthinnedObservations) / Double(max(generated.cycles, 1)), 1) + ")")
        let size = workspace.size(of: database) + workspace.size(of: database + "-wal")
        table.add("database size", Summary.mebibytes(Double(size)))
        let history = try HistoryBenchmark.run(binary: paths.cycletrack, database: database, applianceID: "dishwasher",
                                               repetitions: options.repetitions, scratch: workspace)
        for timing in history.timings {
            table.add("cycletrack \(timing.label) (median of \(options.repetitions), spawned)",
                      Summary.fixed(timing.median, 1) + " ms", target: "< 100 ms", met: timing.median < 100)
        }
        return "History commands on \(Summary.grouped(generated.cycles)) cycles (spawned = exec to exit; in-process medians)\n"
            + history.breakdownTable().text
    }
}
