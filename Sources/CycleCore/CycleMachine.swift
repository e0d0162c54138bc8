import FoundationEssentials

/// The cycle state machine of docs/CYCLES.md, as a value: idle → running (paused,
/// action required, in error, unavailable for a while) → ended → idle. It sees time only
/// through the observations and the `expire(at:)` calls it is given, and returns
/// what happened to the cycle; the `PushPlanner` decides what to send about it.
struct CycleMachine: Sendable, Codable, Equatable {
    /// What happened to the cycle on one event.
    enum Event: Sendable, Equatable {
        case started(CycleInfo)
        /// The running cycle's view may have changed (the operation state is available).
        case changed
        /// The final record of the cycle that ended.
        case ended(CycleInfo, at: Date, outcome: CycleOutcome)
        case warning(String)
    }

    private enum State: Sendable, Codable, Equatable {
        case idle
        case running(Running)
    }

    struct Running: Sendable, Codable, Equatable {
        var cycle: CycleInfo
        var view: CycleView
        /// When the operation state went unavailable or unknown; nil while available.
        var unavailableSince: Date?
        /// When the appliance went into `error` during the cycle; nil once it runs again (or never did).
        var errorSince: Date?
    }

    private var state: State = .idle
    /// The last recognised operation reading (nil: unavailable), which stands when
    /// an unrecognised one arrives.
    private var previous: OperationState?

    /// The open cycle, if any.
    var cycle: CycleInfo? {
        get {
            guard case .running(let running) = state else { return nil }
            return running.cycle
        }
        set {
            guard case .running(var running) = state, let newValue else { return }
            running.cycle = newValue
            state = .running(running)
        }
    }

    /// The running cycle's view; nil while idle.
    var view: CycleView? {
        guard case .running(let running) = state else { return nil }
        return running.view
    }

    /// When the open cycle ends if the operation state stays unavailable (lost) or the
    /// appliance stays in error (failed): `minutes` after the earlier of the two began.
    func lostDeadline(after minutes: Double) -> Date? {
        guard case .running(let running) = state,
              let since = [running.errorSince, running.unavailableSince].compactMap(\.self).min() else { return nil }
        return since.addingTimeInterval(minutes * 60)
    }

    /// Ends the open cycle at `date` if it has been unavailable (lost) or in error (failed) that long.
    mutating func expire(at date: Date, lostAfterMinutes minutes: Double) -> [Event] {
        guard case .running(let running) = state, let deadline = lostDeadline(after: minutes), deadline <= date else {
            return []
        }
        state = .idle
        return [.ended(running.cycle, at: deadline, outcome: running.errorSince == nil ? .lost : .failed)]
    }

    /// Takes one observation through the table of docs/CYCLES.md, "The cycle state machine".
    /// `correction` is the learned shift of the finish time by program (nil: none).
    /// `transitionAt`: when a start or end this observation confirms really happened (a
    /// smart plug's load began or stopped earlier); nil: at the observation.
    mutating func observe(_ observation: Observation, correction: (String) -> Double? = { _ in nil },
                          transitionAt: Date? = nil) -> [Event] {
        var events: [Event] = []
        let before = previous
        let reading: OperationState?
        switch observation.operation {
        case .known(let known):
            reading = known
            previous = known
        case .unavailable:
            reading = nil
            previous = nil
        case .unrecognised(let text):
            events.append(.warning("unrecognised operation state '\(text)': previous state stands"))
            // The previous state stands, but once running it must not end or start the
            // cycle a second time: only its values count.
            guard case .running = state else { return events }
            reading = previous
        }

        switch state {
        case .idle:
            guard let reading else { return events }
            switch reading {
            case .run, .pause, .actionrequired:
                var running = Running(cycle: CycleInfo(startedAt: transitionAt ?? observation.at), view: CycleView())
                if before == .delayedstart { running.cycle.delayedStart = true }
                running.absorb(observation, pause: PauseState(reading), correction: correction)
                state = .running(running)
                events.append(.started(running.cycle))
            case .delayedstart, .finished, .ready, .inactive, .error, .aborting:
                break
            }
        case .running(var running):
            guard let reading else {
                running.view.available = false
                if running.unavailableSince == nil { running.unavailableSince = observation.at }
                state = .running(running)
                return events
            }
            let outcome: CycleOutcome
            switch reading {
            case .run, .pause, .actionrequired, .delayedstart, .error:
                // An error mid-cycle may clear and the cycle run on (docs/CYCLES.md, "Errors").
                running.errorSince = reading == .error ? running.errorSince ?? observation.at : nil
                running.absorb(observation, pause: PauseState(reading), correction: correction)
                state = .running(running)
                events.append(.changed)
                return events
            case .finished: outcome = .finished
            // Ready or off straight from an error: the cycle failed. Without the brand's own
            // end state: the run was cancelled.
            case .ready, .inactive:
                outcome = running.errorSince != nil ? .failed : observation.profile.saysWhenFinished ? .aborted : .finished
            case .aborting: outcome = .aborted
            }
            running.cycle.accumulateCost(observation)
            if let energy = observation.energy { running.cycle.energyLatest = energy }
            running.cycle.integratePower(observation)
            state = .idle
            let endedAt = transitionAt.map { max($0, running.cycle.startedAt) } ?? observation.at
            events.append(.ended(running.cycle, at: endedAt, outcome: outcome))
        }
        return events
    }
}

extension CycleMachine.Running {
    /// Takes the values of an observation whose operation state says the cycle runs. The
    /// view shows the finish time corrected for the cycle's program, when `correction`
    /// knows one; the cycle keeps both the reported and the shown.
    mutating func absorb(_ observation: Observation, pause: PauseState, correction: (String) -> Double?) {
        unavailableSince = nil
        view.available = true
        view.pause = pause
        if let progress = observation.progress {
            view.progress = progress
            cycle.maxProgress = max(cycle.maxProgress ?? progress, progress)
        }
        if let program = observation.program {
            view.program = program
            if cycle.program == nil { cycle.program = program }
        }
        takeFinish(observation.finishTime, at: observation.at, correction: correction)
        if let temperature = observation.temperature {
            view.temperature = temperature
            view.temperatureUnit = observation.temperatureUnit
        }
        cycle.accumulateCost(observation)
        if let energy = observation.energy {
            if cycle.energyAtStart == nil { cycle.energyAtStart = energy }
            cycle.energyLatest = energy
        }
        cycle.integratePower(observation)
        if let phase = observation.phase { view.phase = phase }
    }

    /// The reported finish time, and the one to show for it.
    private mutating func takeFinish(_ reported: Date?, at: Date, correction: (String) -> Double?) {
        guard let finish = reported else {
            view.finishTime = nil
            view.reportedFinish = nil
            return
        }
        if cycle.firstPredictedFinish == nil { cycle.firstPredictedFinish = finish }
        cycle.lastPredictedFinish = finish
        // Worked out when the reported time changes, not at every poll that repeats it: a
        // stored cycle (its observations kept as changes) replays the same.
        guard finish != view.reportedFinish || view.finishTime == nil else { return }
        view.reportedFinish = finish
        var shown = finish
        if let program = cycle.program, let learned = correction(program), let first = cycle.firstPredictedFinish {
            shown = FinishCorrection.shown(reported: finish, firstReported: first, learned: learned, at: at)
        }
        view.finishTime = shown
        if cycle.firstShownFinish == nil { cycle.firstShownFinish = shown }
        cycle.lastShownFinish = shown
    }
}

extension PauseState {
    init(_ state: OperationState) {
        switch state {
        case .pause: self = .paused
        case .actionrequired: self = .actionRequired
        case .error: self = .error
        default: self = .running
        }
    }
}
