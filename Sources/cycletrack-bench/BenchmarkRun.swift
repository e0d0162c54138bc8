import FoundationEssentials

/// Runs the six phases in order, printing progress to stderr, and the tables to
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

        if options.realHA { return try runRealHomeAssistant(workspace: workspace) }

        Console.progress("phase 1/6: pushes per cycle")
        let tracesDirectory = paths.tracesDirectory(options.tracesDirectory)
        let corpus = try TraceCorpus.load(examplesIn: tracesDirectory, seed: options.seed)
        if let note = corpus.note { Console.progress(note) }
        let pushes = PushCountBenchmark.run(corpus)
        addPushRows(pushes, corpus: corpus, to: &table)

        Console.progress("phase 2/6: planner throughput")
        let throughput = ThroughputBenchmark.run(corpus, targetSeconds: options.throughputSeconds)
        table.add("planner throughput (ApplianceTracker, release)",
                  "\(Summary.grouped(Int(throughput.perSecond))) obs/s (\(Summary.fixed(throughput.microsecondsPerObservation, 2)) µs/obs, "
                      + "\(throughput.passes) passes, \(Summary.fixed(throughput.seconds, 2)) s)")

        Console.progress("phase 3/6: service footprint, \(Summary.fixed(options.footprintSeconds, 0)) s of `cycletrack run`")
        try addFootprintRows(workspace: workspace, to: &table)

        Console.progress("phase 4/6: history of \(Summary.grouped(options.historyCycles)) cycles")
        let database = workspace.path("history.sqlite")
        sections.append(try addHistoryRows(database: database, corpus: corpus, workspace: workspace, to: &table))

        Console.progress("phase 5/6: start-up")
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

        if options.latencyChanges > 0 {
            Console.progress("phase 6/6: latency and idle CPU, events then poll mode (\(options.latencyChanges) changes each, "
                + "\(Summary.fixed(options.idleSeconds, 0)) s idle)")
            sections.append(try addLatencyRows(workspace: workspace, to: &table))
        } else {
            Console.progress("phase 6/6: latency skipped (--latency-changes 0)")
        }

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

    /// `--real-ha`: only the real-HA phase; 1 when a target was missed.
    private func runRealHomeAssistant(workspace: BenchWorkspace) throws(BenchError) -> Int32 {
        let result = try RealHomeAssistantBenchmark.run(paths: paths, workspace: workspace, changes: options.haChanges,
                                                        restarts: options.haRestarts, seed: options.seed)
        print(result.text)
        print(MachineInfo.line())
        return result.met ? 0 : 1
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

    private func addLatencyRows(workspace: BenchWorkspace, to table: inout ResultTable) throws(BenchError) -> String {
        var runs: [LatencyBenchmark] = []
        for mode in ["events", "poll"] {
            Console.progress("latency: \(mode) mode")
            runs.append(try LatencyBenchmark.run(mode: mode, binary: paths.cycletrack, workspace: workspace,
                                                 runningChanges: options.latencyChanges, idleSeconds: options.idleSeconds,
                                                 seed: options.seed))
        }
        func seconds(_ value: Double?) -> String { value.map { Summary.fixed($0, 3) + " s" } ?? "-" }
        func spread(_ values: [Double]) -> String {
            "p50 \(seconds(Summary.percentile(values, 50))), p95 \(seconds(Summary.percentile(values, 95))), "
                + "max \(seconds(values.max())) over \(values.count)"
        }
        func medianMax(_ values: [Double]) -> String {
            "\(seconds(Summary.median(values))) / \(seconds(values.max())) over \(values.count)"
        }
        func perMinute(_ run: LatencyBenchmark) -> String { Summary.fixed(run.idleCPUPerMinute * 1000, 2) + " ms" }
        func ticks(_ run: LatencyBenchmark) -> String {
            Summary.fixed(run.idleTickCPUPerMinute * 1000, 1) + " ms ± " + Summary.fixed(run.idleTickResolutionPerMinute * 1000, 1)
        }

        var breakdown = PlainTable(["change in HA → Supernotify call at the stand-in"] + runs.map(\.mode))
        func row(_ title: String, _ cell: (LatencyBenchmark) -> String) { breakdown.rows.append([title] + runs.map(cell)) }
        row("changes in a running cycle (steps, pause, resume)") { String($0.running.count) }
        row("  p50") { seconds(Summary.percentile($0.running, 50)) }
        row("  p95") { seconds(Summary.percentile($0.running, 95)) }
        row("  max") { seconds($0.running.max()) }
        row("cycle starts (ready → run): median / max") { medianMax($0.starts) }
        row("cycle ends (finished → clear): median / max") { medianMax($0.ends) }
        row("calls missing or not the one expected") { String($0.problems.count) }
        row("REST state reads / subscribe_entities, whole run") { "\($0.templateReads) / \($0.subscriptions)" }
        row("idle CPU per minute (CPU clock, ns)") { perMinute($0) }
        row("idle CPU per minute (/proc ticks)") { ticks($0) }
        row("idle stretch: seconds, reads, calls") { "\(Summary.fixed($0.idleSeconds, 0)) s, \($0.idleTemplateReads), \($0.idleCalls)" }
        row("stopped by SIGTERM") { $0.exitStatus.map(\.description) ?? "killed after 15 s" }

        let events = runs[0]
        let poll = runs[1]
        table.add("latency, change → call, events mode (running cycle)", spread(events.running),
                  target: "p95 < 1 s", met: (Summary.percentile(events.running, 95) ?? .infinity) < 1)
        table.add("latency, change → call, poll mode (10 s active poll)", spread(poll.running))
        table.add("latency of a cycle's start, events / poll (median / max)",
                  medianMax(events.starts) + "  |  " + medianMax(poll.starts))
        for run in runs {
            table.add("idle CPU per minute, \(run.mode) mode (\(Summary.fixed(run.idleSeconds, 0)) s, CPU clock)",
                      perMinute(run) + " (/proc: " + ticks(run) + ")",
                      target: "< 10 ms", met: run.idleSeconds > 0 && run.idleCPUPerMinute < 0.010)
        }
        let problems = runs.flatMap { run in run.problems.map { "\(run.mode): \($0)" } }
        table.add("latency: every change made its call", problems.isEmpty ? "all" : problems.joined(separator: "; "),
                  target: "all", met: problems.isEmpty)
        table.add("latency runs stopped by SIGTERM", runs.map { "\($0.mode): " + ($0.exitStatus.map(\.description) ?? "killed") }
                      .joined(separator: ", "),
                  target: "exit 0", met: runs.allSatisfy { $0.exitStatus == .exited(0) })
        return "Latency and idle CPU (one appliance, settle 0, min gap 0; poll mode: 10 s active / 30 s idle)\n"
            + breakdown.text
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
