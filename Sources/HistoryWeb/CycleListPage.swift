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
        /// Cycles skipped, newest first: the page shown is `offset / limit + 1`.
        var offset: Int64
        var filter: CycleFilter

        /// The filters as a query string (without limit and offset), for the CSV link and the pager.
        var queryString: String {
            [("appliance", appliance), ("since", since), ("until", until), ("program", program), ("outcome", outcome)]
                .compactMap { name, value in value.map { "\(name)=\(HTML.queryValue($0))" } }
                .joined(separator: "&")
        }
    }

    func fields() throws(PageError) -> Fields {
        let since = try query.day("since", endOfDay: false)
        let until = try query.day("until", endOfDay: true)
        if let since, let until, since >= until {
            throw .badRequest("'since' \(query.arguments["since"] ?? "") is after 'until' \(query.arguments["until"] ?? "")")
        }
        let outcome = try query.choice("outcome", Self.outcomes)
        let limit = try query.integer("limit", in: 1...10_000) ?? Self.defaultLimit
        let offset = try query.integer("offset", in: 0...10_000_000) ?? 0
        let appliance = try query.text("appliance")
        let program = try query.text("program")
        var filter = CycleFilter(
            applianceID: appliance, since: since, until: until, program: program,
            outcome: outcome.map { $0 == "open" ? .open : .ended($0) }, limit: Int(limit))
        filter.offset = Int(offset)
        return Fields(appliance: appliance, since: query.arguments["since"].flatMap { $0.isEmpty ? nil : $0 },
                      until: query.arguments["until"].flatMap { $0.isEmpty ? nil : $0 },
                      program: program, outcome: outcome, limit: limit, offset: offset, filter: filter)
    }

    /// `cycles.csv`: every cycle the filters match (limit and offset aside), as
    /// `cycletrack query --format csv` writes them.
    static func csv(_ store: HistoryStore, fields: Fields, timeZone: LocalTimeZone) throws(StoreError) -> String {
        var filter = fields.filter
        filter.limit = nil
        filter.offset = 0
        let cycles = try store.cycles(matching: filter)
        return ReportValue.csvDocument(columns: CycleReport.columns, cycles.map { CycleReport.record($0, programName: ProgramName.readable) })
    }

    func render(_ store: HistoryStore, fields: Fields) throws(StoreError) -> String {
        let cycles = try store.cycles(matching: fields.filter)
        var html = "<h1>Cycles</h1>\n" + form(fields)
        let filters = fields.queryString
        let csvLink = "<a id=\"csv-link\" href=\"cycles.csv\(filters.isEmpty ? "" : "?" + filters)\" download>CSV of these cycles</a>"
        guard !cycles.isEmpty else {
            return html + "<p class=\"muted\" id=\"no-cycles\">No cycle matches.</p>"
        }
        var total = cycles.count + Int(fields.offset)
        if cycles.count == fields.limit || fields.offset > 0 { total = try store.countCycles(matching: fields.filter) }
        html += pager(fields, shown: cycles.count, total: total, csvLink: csvLink)
        html += """
            <div class="table-wrap"><table id="cycles" class="cards-on-phone">
            <thead><tr><th>Started</th><th>Appliance</th><th>Program</th><th class="num">Ran</th><th>Outcome</th>\
            <th class="num">Estimate error</th><th class="num">Pushes</th><th class="num">Energy</th><th class="num">Cost</th></tr></thead>
            <tbody>

            """
        for cycle in cycles {
            html += try row(cycle, store: store)
        }
        return html + "</tbody></table></div>\n" + (total > cycles.count ? pager(fields, shown: cycles.count, total: total, csvLink: nil) : "")
    }

    private func row(_ cycle: CycleRecord, store: HistoryStore) throws(StoreError) -> String {
        var ran = cycle.duration.map(TimeText.duration) ?? "running"
        if cycle.isOpen, let heard = try store.lastHeard(cycleID: cycle.id) {
            ran += "<div class=\"muted last-heard\">last heard \(context.ago(heard))</div>"
        }
        let error = cycle.outcome == .finished
            ? both(cycle.endedAt, cycle.firstPredictedFinish).map { TimeText.signedDuration($0.timeIntervalSince($1)) } ?? ""
            : ""
        func cell(_ label: String, _ content: String, number: Bool = false) -> String {
            "<td\(number ? " class=\"num\"" : "") data-label=\"\(label)\">\(content)</td>"
        }
        return "<tr class=\"cycle-row\" data-id=\"\(cycle.id)\">"
            + cell("Started", "<a href=\"cycle?id=\(cycle.id)\">\(context.dateTime(cycle.startedAt))</a>")
            + cell("Appliance", HTML.escape(context.name(of: cycle.applianceID)))
            + cell("Program", HTML.escape(context.program(cycle.program)))
            + cell("Ran", ran, number: true)
            + cell("Outcome", context.stateTag(cycle))
            + cell("Estimate error", error, number: true)
            + cell("Pushes", "\(cycle.pushes)", number: true)
            + cell("Energy", cycle.energyKWh.map(PageContext.energy) ?? "", number: true)
            + cell("Cost", PageContext.cost(cycle), number: true) + "</tr>\n"
    }

    /// "Cycles 201–400 of 950", the links to the pages before and after, and the CSV link.
    private func pager(_ fields: Fields, shown: Int, total: Int, csvLink: String?) -> String {
        let first = Int(fields.offset) + 1, last = Int(fields.offset) + shown
        let filters = fields.queryString
        func link(_ offset: Int64, _ text: String, _ rel: String) -> String {
            var parts = filters.isEmpty ? [] : [filters]
            if fields.limit != Self.defaultLimit { parts.append("limit=\(fields.limit)") }
            if offset > 0 { parts.append("offset=\(offset)") }
            return "<a rel=\"\(rel)\" href=\"cycles\(parts.isEmpty ? "" : "?" + parts.joined(separator: "&"))\">\(text)</a>"
        }
        var html = "<div class=\"pager\"><span class=\"muted\">"
        html += total == shown && fields.offset == 0
            ? "\(total) cycle\(total == 1 ? "" : "s")"
            : "Cycles \(first)–\(last) of \(total), newest first"
        html += "</span>"
        if fields.offset > 0 { html += link(max(fields.offset - fields.limit, 0), "← Newer", "prev") }
        if Int64(last) < Int64(total) { html += link(fields.offset + fields.limit, "Older →", "next") }
        return html + (csvLink ?? "") + "</div>\n"
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
