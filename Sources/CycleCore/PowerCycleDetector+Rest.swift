import FoundationEssentials

extension PowerCycleDetector {
    /// When the rest under way (begun at `rest`) ends the cycle if nothing else happens, and
    /// the moment the cycle will then be said to have ended.
    func endDue(rest: Date, _ context: Context) -> (due: Date, endedAt: Date) {
        let settings = context.settings
        let quiet = max(quietSince ?? rest, rest)
        let restWait = restWait(context)
        switch context.kind {
        case .dishwasher:
            if pumpedOut { return (quiet.addingTimeInterval(context.pumpOutSettle), quiet) }
            // Drying, silent or not, is part of the cycle: it ended when the power fell to standby.
            let ended = idleSince.map { max($0, quiet) } ?? quiet
            return (rest.addingTimeInterval(restWait), ended)
        case .dryer where restBursts > 0:
            // Anti-crease turns after the drying load: the cycle ended when the drying stopped.
            return (rest.addingTimeInterval(settings.offSeconds), rest)
        case .dryer, .washer, .washerDryer, .other:
            // A washer's rest right after its heater is a soak in hot water, not its end.
            var due = quiet.addingTimeInterval(afterHeat(rest, context) ? restWait * 2 : restWait)
            if let idleSince { due = min(due, max(idleSince, quiet).addingTimeInterval(settings.offSeconds)) }
            return (due, quiet)
        }
    }

    /// Whether a washer's rest begun at `rest` came right after its heater (within 2 × `start_seconds`).
    func afterHeat(_ rest: Date, _ context: Context) -> Bool {
        guard context.kind != .dryer, context.kind != .dishwasher, let lastHeatAt else { return false }
        return rest.timeIntervalSince(lastHeatAt) <= context.settings.startSeconds * 2
    }

    /// How long a rest above standby may last inside a cycle: the kind's, until the plug
    /// learned its own longest rest (the store's or this run's), then that with room to spare
    /// (never shorter than the kind's shortest).
    func restWait(_ context: Context) -> Double {
        let learned = [context.learnedRest, signature.longestRest].compactMap(\.self).filter { $0 > 0 }.max()
        let off = context.settings.offSeconds
        // A dishwasher that pumps out says its end itself: its drying may last as long as the kind's.
        let pumpsOut = context.kind == .dishwasher && signature.pumpOut == true
        guard let learned, !pumpsOut else { return min(context.kind.restWait(off: off), context.settings.quietSeconds) }
        return max(context.kind.shortestRestWait(off: off), min(learned * PlugKind.learnedRestMargin + 60, context.settings.quietSeconds))
    }

    mutating func beginRest(at since: Date) {
        restSince = since
        quietSince = since
        lowSince = nil
        loadSince = nil
        loadQuietSince = nil
        restBursts = 0
        pumpedOut = false
    }

    /// A load in a rest ended short of `burst_seconds`: a burst. A dishwasher's after a
    /// long silent rest is its pump-out. A washer's turn keeps its rest going from there.
    mutating func burstOver(quietAt quiet: Date, _ context: Context) {
        let kind = context.kind
        // A flicker of a few seconds (the display, a relay) is no work at all.
        if loadHeld < context.flickerSeconds {
            self.loadSince = nil
            loadQuietSince = nil
            return
        }
        if let loadSince, kind == .dishwasher, let before = quietSince,
           loadSince.timeIntervalSince(before) >= context.pumpOutQuiet {
            pumpedOut = true
        }
        restBursts += 1
        if kind != .dryer { quietSince = quiet }
        loadSince = nil
        loadQuietSince = nil
    }

    /// A load outlasted a burst: the rest was part of the cycle. A washer's soak right after
    /// its heater is not learned as a rest (it has a wait of its own: twice the rest wait).
    mutating func resume(at loadStart: Date, _ context: Context) {
        if let restSince, !afterHeat(restSince, context) {
            longestRest = max(longestRest ?? 0, loadStart.timeIntervalSince(restSince))
        }
        restSince = nil
        quietSince = nil
        lowSince = nil
        loadSince = nil
        loadQuietSince = nil
        restBursts = 0
        pumpedOut = false
    }

    mutating func start(at since: Date) {
        running = true
        transitionAt = since
        lastHeatAt = nil
        chainSince = nil
        chainWorked = false
        chainDipSince = nil
        longestRest = nil
        endedAt = nil
        burstsAfterEnd = 0
        lowSince = nil
        idleSince = nil
        restSince = nil
        quietSince = nil
        loadSince = nil
        loadQuietSince = nil
        restBursts = 0
        pumpedOut = false
    }

    mutating func end(at time: Date, _ kind: PlugKind) {
        // A dishwasher's drying before the power fell to standby (or its pump-out) was inside the cycle.
        if kind == .dishwasher, let restSince, time > restSince {
            longestRest = max(longestRest ?? 0, time.timeIntervalSince(restSince))
        }
        signature.finished(rest: longestRest, pumpOut: pumpedOut)
        running = false
        transitionAt = time
        endedAt = time
        burstsAfterEnd = kind == .dryer ? restBursts : 0
        chainSince = nil
        chainWorked = false
        chainDipSince = nil
        lowSince = nil
        idleSince = nil
        restSince = nil
        quietSince = nil
        loadSince = nil
        loadQuietSince = nil
        restBursts = 0
        pumpedOut = false
    }
}
