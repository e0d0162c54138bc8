import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// `cycles`: the stored cycles, newest first, filtered as `cycletrack query` filters
/// them; the filters are the form's fields and the form submits to the page itself.
struct CycleListPage {
    let context: PageContext
    let query: PageQuery

    static let defaultLimit: Int64 = 200
    static let outcomes = ["open"] + CycleOutcome.allCases.map(\.rawValue)

    /// The fields read and checked: a bad one is a 400 before the store is asked.
    struct Fields {
        var appliance: String?
        var since: String?
        var until: String?
        var program: String?
        var outcome: String?
        var limit: Int64
        var filter: CycleFilter
    }

    func fields() throws(PageError) -> Fields {
        let since = try query.day("since", endOfDay: false)
        let until = try query.day("until", endOfDay: true)
        if let since, let until, since >= until {
            throw .badRequest("'since' \(query.arguments["since"] ?? "") is after 'until' \(query.arguments["until"] ?? "")")
        }
        let outcome = try query.choice("outcome", Self.outcomes)
        let limit = try query.integer("limit", in: 1...10_000) ?? Self.defaultLimit
        let appliance = try query.text("appliance")
        let program = try query.text("program")
        let filter = CycleFilter(
            applianceID: appliance, since: since, until: until, program: program,
            outcome: outcome.map { $0 == "open" ? .open : .ended($0) }, limit: Int(limit))
        return Fields(appliance: appliance, since: query.arguments["since"].flatMap { $0.isEmpty ? nil : $0 },
                      until: query.arguments["until"].flatMap { $0.isEmpty ? nil : $0 },
                      program: program, outcome: outcome, limit: limit, filter: filter)
    }

    func render(_ store: HistoryStore, fields: Fields) throws(StoreError) -> String {
        let cycles = try store.cycles(matching: fields.filter)
        var html = "<h1>Cycles</h1>\n" + form(fields)
        guard !cycles.isEmpty else {
            return html + "<p class=\"muted\" id=\"no-cycles\">No cycle matches.</p>"
        }
        let more = cycles.count == fields.limit ? " (the newest \(fields.limit); narrow the filters to see others)" : ""
        html += "<p class=\"muted\">\(cycles.count) cycle\(cycles.count == 1 ? "" : "s")\(more)</p>"
        html += """
            <div class="table-wrap"><table id="cycles">
            <thead><tr><th>Started</th><th>Appliance</th><th>Program</th><th class="num">Ran</th><th>Outcome</th>\
            <th class="num">Estimate error</th><th class="num">Pushes</th><th class="num">Energy</th></tr></thead>
            <tbody>

            """
        for cycle in cycles {
            let ran = cycle.duration.map(TimeText.duration) ?? "running"
            let error = cycle.outcome == .finished
                ? both(cycle.endedAt, cycle.firstPredictedFinish).map { TimeText.signedDuration($0.timeIntervalSince($1)) } ?? ""
                : ""
            html += "<tr class=\"cycle-row\" data-id=\"\(cycle.id)\">"
                + "<td><a href=\"cycle?id=\(cycle.id)\">\(context.dateTime(cycle.startedAt))</a></td>"
                + "<td>\(HTML.escape(context.name(of: cycle.applianceID)))</td>"
                + "<td>\(HTML.escape(context.program(cycle.program)))</td>"
                + "<td class=\"num\">\(ran)</td>"
                + "<td>\(PageContext.stateTag(cycle))</td>"
                + "<td class=\"num\">\(error)</td>"
                + "<td class=\"num\">\(cycle.pushes)</td>"
                + "<td class=\"num\">\(cycle.energyKWh.map(PageContext.energy) ?? "")</td></tr>\n"
        }
        return html + "</tbody></table></div>"
    }

    private func form(_ fields: Fields) -> String {
        func selected(_ value: String?, _ option: String?) -> String { value == option ? " selected" : "" }
        let appliances = context.names.keys.sorted { context.name(of: $0) < context.name(of: $1) }
        var html = "<form class=\"filters\" action=\"cycles\" method=\"get\">"
        html += "<label>Appliance<select name=\"appliance\"><option value=\"\"\(selected(fields.appliance, nil))>any</option>"
        for id in appliances {
            html += "<option value=\"\(HTML.escape(id))\"\(selected(fields.appliance, id))>\(HTML.escape(context.name(of: id)))</option>"
        }
        html += "</select></label>"
        html += "<label>Since<input type=\"date\" name=\"since\" value=\"\(HTML.escape(fields.since ?? ""))\"></label>"
        html += "<label>Until<input type=\"date\" name=\"until\" value=\"\(HTML.escape(fields.until ?? ""))\"></label>"
        html += "<label>Program<input type=\"search\" name=\"program\" maxlength=\"\(PageQuery.maximumTextLength)\" placeholder=\"eco\" value=\"\(HTML.escape(fields.program ?? ""))\"></label>"
        html += "<label>Outcome<select name=\"outcome\"><option value=\"\"\(selected(fields.outcome, nil))>any</option>"
        for outcome in Self.outcomes {
            html += "<option value=\"\(outcome)\"\(selected(fields.outcome, outcome))>\(outcome)</option>"
        }
        html += "</select></label>"
        html += "<button type=\"submit\">Show</button></form>\n"
        return html
    }
}

/// Both values, when neither is nil.
func both<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
