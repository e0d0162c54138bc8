import CycleCore
import Foundation
import Testing
import LocalTime
import TestSupport
@testable import CycleHistory
@testable import HistoryWeb
@testable import CycleService

/// The history page tells what the phone showed (issue 22): the corrected finish time,
/// the phone's percentage, countdown and sound; held-back and replayed calls apart;
/// reminders on their cycle; a cycle never closed; a program per appliance; charts that
/// say the year and "min"; the Now page live and in a named zone; energy, cost, curves,
/// the CSV and paging. Rendered from `HistoryFixture` plus what each test adds.
@Suite("History page tells the truth")
struct HistoryPageTruthTests {
    let fixture: HistoryFixture
    let site: HistorySite

    init() throws {
        fixture = try HistoryFixture()
        site = HistorySite(databasePath: fixture.path, timeZone: HistoryFixture.timeZone)
    }

    func page(_ path: String, _ query: [String: String] = [:], site: HistorySite? = nil) -> HistoryResponse {
        (site ?? self.site).respond(to: HistoryRequest(path: path, query: query), now: HistoryFixture.now)
    }

    static func count(_ needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    static func body(title: String, message: String, progress: Int?, when: Date?, silent: Bool) -> String {
        var extra: [String] = []
        if let progress { extra.append("\"progress\": \(progress)") }
        if let when { extra.append("\"when\": \(when.timeIntervalSince1970)") }
        extra.append("\"silent\": \(silent)")
        return "{\"title\": \"\(title)\", \"message\": \"\(message)\", \"extra_data\": {\(extra.joined(separator: ", "))}}"
    }

    @Test("1. The finish time shown on the phone is on the page; Phone shows has the %, the countdown and the sound")
    func correctedFinishAndPhone() throws {
        let store = try HistoryStore(path: fixture.path)
        // Cycle 1 started 09:00 local and ended 11:14; HA first said 11:18, the phone showed 11:05.
        try store.updateCycle(id: 1, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: nil,
                              energyStart: nil, firstShownFinish: t(125 * 60), lastShownFinish: t(125 * 60))
        _ = try store.recordPush(cycleID: 1, applianceID: "dishwasher", at: t(600), kind: .progress, reason: "step 40%",
                                 body: Self.body(title: "Dishwasher", message: "Eco 50 · 1 h 55 min left", progress: 42,
                                                 when: t(125 * 60), silent: true), status: .sent)
        let html = page("/cycle", ["id": "1"]).body
        #expect(html.contains("First shown on the phone</span><b>11:05"))
        #expect(html.contains("First estimate (HA)</span><b>11:18"))
        #expect(html.contains("Error as shown</span><b>+9 min"))
        #expect(html.contains("Dishwasher · Eco 50 · 1 h 55 min left · 42% · counts down to 11:05 · silent"))
        #expect(html.contains("id=\"shown-finish\""), "the shown finish drawn beside HA's")
        #expect(html.contains("data-label=\"Phone shows\""), "the column keeps its name when the table becomes cards")
    }

    @Test("2. A held-back call is hollow and counted apart; replayed calls are replayed, not held back")
    func heldAndReplayed() throws {
        let store = try HistoryStore(path: fixture.path)
        let replay = try store.openCycle(applianceID: "washer", program: "cotton", startedAt: t(-2 * 86_400), source: .replay)
        for index in 0..<3 {
            _ = try store.recordPush(cycleID: replay, applianceID: "washer", at: t(-2 * 86_400 + Double(index) * 60), kind: .progress,
                                     reason: "step", body: "{}", status: .replayed)
        }
        _ = try store.recordPush(cycleID: replay, applianceID: "washer", at: t(-2 * 86_400 + 300), kind: .progress,
                                 reason: "cycle budget: 18 calls made", body: "{}", status: .notSent)
        try store.closeCycle(id: replay, endedAt: t(-2 * 86_400 + 3_600), outcome: .finished, energyEnd: nil)
        let html = page("/cycle", ["id": String(replay)]).body
        #expect(html.contains("3 replayed + 1 held back"))
        #expect(Self.count("push-marker kind-progress replayed", in: html) == 3)
        #expect(Self.count("push-marker kind-progress held", in: html) == 1)
        #expect(html.contains("cycle budget: 18 calls made"))
        #expect(html.contains("replayed (never sent)"), "the legend names the replayed marker")
    }

    @Test("3. A reminder shows on its cycle, with a coloured swatch")
    func reminder() throws {
        let store = try HistoryStore(path: fixture.path)
        _ = try store.recordPush(cycleID: 1, applianceID: "dishwasher", at: t(170 * 60), kind: .reminder, reason: "door closed 30 min",
                                 body: Self.body(title: "Dishwasher", message: "Ready to unload", progress: nil, when: nil, silent: false),
                                 status: .sent)
        let html = page("/cycle", ["id": "1"]).body
        #expect(Self.count("push-marker kind-reminder", in: html) == 1)
        #expect(html.contains("<span class=\"pill kind-reminder\">reminder</span>"))
        #expect(PageLayout.style.contains(".swatch-reminder{background:var(--k-reminder)}"))
    }

    @Test("6. A cycle never closed says when it was last heard and that it is overdue")
    func neverClosed() throws {
        let store = try HistoryStore(path: fixture.path)
        // Cycle 3 (dishwasher, open) started a day before `now`, due an hour after its start.
        _ = try store.recordObservation(applianceID: "dishwasher", cycleID: 3, at: t(2 * 86_400 + 1_800),
                                        states: [.operationState: "run", .progress: "99"])
        let timeline = page("/cycle", ["id": "3"]).body
        #expect(timeline.contains("<span class=\"state overdue\">overdue</span>"))
        #expect(timeline.contains("id=\"overdue\""))
        #expect(timeline.contains("Last heard</span><b>23 h 30 min ago"))
        #expect(timeline.contains("Was due at"))
        let list = page("/cycles").body
        #expect(list.contains("last heard 23 h 30 min ago"))
        let now = page("/").body
        #expect(now.contains("<span class=\"state overdue\">overdue</span>"))
    }

    @Test("7. The same program on two appliances is two rows, each naming its appliance")
    func programPerAppliance() throws {
        let store = try HistoryStore(path: fixture.path)
        let dryer = try store.openCycle(applianceID: "washer", program: "eco_50", startedAt: t(-3 * 86_400), source: .run)
        try store.closeCycle(id: dryer, endedAt: t(-3 * 86_400 + 3_600), outcome: .finished, energyEnd: nil)
        let html = page("/programs").body
        #expect(Self.count("class=\"program-row\"", in: html) == 4)
        #expect(html.contains("class=\"appliance\">Washer</td>") && html.contains("class=\"appliance\">Dishwasher</td>"))
    }

    @Test("8. Charts: years on a history spanning years, two labels at least on the finish chart, min not m")
    func charts() throws {
        let store = try HistoryStore(path: fixture.path)
        let old = try store.openCycle(applianceID: "dishwasher", program: "eco_50", startedAt: t(-400 * 86_400), source: .run)
        try store.closeCycle(id: old, endedAt: t(-400 * 86_400 + 7_000), outcome: .finished, energyEnd: nil)
        let programs = page("/programs").body
        #expect(programs.contains(">2025-"), "a date with its year")
        #expect(programs.contains(" min</text>"))
        #expect(!programs.contains(#/\dm</text>/#), "no bare m")
        // Cycle 1's estimate moved within a few minutes: the y axis still gets two labels.
        _ = try store.recordObservation(applianceID: "dishwasher", cycleID: 1, at: t(60),
                                        states: [.operationState: "run", .finishTime: ISOTime.format(t(130 * 60))])
        _ = try store.recordObservation(applianceID: "dishwasher", cycleID: 1, at: t(3_600),
                                        states: [.operationState: "run", .finishTime: ISOTime.format(t(131 * 60))])
        let timeline = page("/cycle", ["id": "1"]).body
        let start = try #require(timeline.firstRange(of: "id=\"estimate-chart\"")).lowerBound
        let chart = timeline[start...].split(separator: "</svg>").first ?? ""
        #expect(Self.count("text-anchor=\"end\"", in: String(chart)) >= 2, "two time labels at least")
        #expect(timeline.contains("class=\"chart wide\""), "wide charts keep a readable width on a phone")
        #expect(PageLayout.style.contains(".chart.wide{min-width:600px}"))
    }

    @Test("9. On a phone the tables become cards: every cell names its column")
    func phoneTables() {
        let list = page("/cycles").body
        #expect(list.contains("class=\"cards-on-phone\""))
        for label in ["Started", "Outcome", "Ran", "Pushes", "Energy", "Cost"] {
            #expect(Self.count("data-label=\"\(label)\"", in: list) == 4, "\(label) on each of the 4 rows")
        }
        #expect(PageLayout.style.contains("table.cards-on-phone td::before{content:attr(data-label)"))
    }

    @Test("11. Now refreshes while a cycle runs, shows the cycle's state, and says the time zone")
    func nowPage() throws {
        let running = page("/").body
        #expect(running.contains("<meta http-equiv=\"refresh\" content=\"30\">"))
        #expect(running.contains("Times are in UTC+01:00."))
        let store = try HistoryStore(path: fixture.path)
        _ = try store.recordObservation(applianceID: "washer", cycleID: nil, at: t(2 * 86_400), states: [.operationState: "inactive"])
        let after = page("/").body
        let washer = try #require(after.firstRange(of: "id=\"appliance-washer\"")).lowerBound
        #expect(!after[washer...].prefix(300).contains("inactive"), "not HA's raw value")
        try store.closeCycle(id: 3, endedAt: t(2 * 86_400 + 3_600), outcome: .finished, energyEnd: nil)
        #expect(!page("/").body.contains("http-equiv=\"refresh\""), "no refresh when nothing runs")
        let bogus = HistorySite(databasePath: fixture.path,
                                timeZone: LocalTimeZone.resolve(environment: ["TZ": "Bogus/Zone"]))
        #expect(page("/", site: bogus).body.contains("TZ=Bogus/Zone names no time zone"))
    }

    @Test("Energy and cost per cycle, per program, per month and week")
    func energyAndCost() throws {
        let store = try HistoryStore(path: fixture.path)
        let id = try store.openCycle(applianceID: "washer", program: "cotton", startedAt: t(-86_400), source: .run)
        try store.updateCycle(id: id, program: nil, firstPredictedFinish: nil, lastPredictedFinish: nil, maxProgress: 100, energyStart: 10)
        try store.closeCycle(id: id, endedAt: t(-86_400 + 5_400), outcome: .finished, energyEnd: 11.2, cost: 0.384, currency: "EUR")
        let list = page("/cycles").body
        #expect(list.contains("0.38 EUR"))
        let timeline = page("/cycle", ["id": String(id)]).body
        #expect(timeline.contains("Cost</span><b>0.38 EUR"))
        let programs = page("/programs").body
        #expect(programs.contains("id=\"energy-by-month\"") && programs.contains("id=\"energy-by-week\""))
        #expect(programs.contains("<td data-label=\"Month\">2026-11</td><td data-label=\"Appliance\">Washer</td>"))
        #expect(programs.contains("1.20 kWh") && programs.contains("0.38 EUR"))
    }

    @Test("Power and temperature curves on the timeline when reported")
    func curves() throws {
        let store = try HistoryStore(path: fixture.path)
        #expect(!page("/cycle", ["id": "1"]).body.contains("id=\"curves-chart\""), "none without readings")
        for minute in stride(from: 0.0, through: 120, by: 10) {
            _ = try store.recordObservation(applianceID: "dishwasher", cycleID: 1, at: t(minute * 60),
                                            states: [.operationState: "run", .power: String(minute < 60 ? 2_000 : 80),
                                                     .temperature: String(20 + minute / 4)])
        }
        let html = page("/cycle", ["id": "1"]).body
        #expect(html.contains("id=\"curves-chart\"") && html.contains("id=\"power-curve\"") && html.contains("id=\"temperature-curve\""))
    }

    @Test("The cycle list links its CSV (query's columns) and pages past its limit")
    func csvAndPaging() throws {
        let list = page("/cycles", ["appliance": "dishwasher"]).body
        #expect(list.contains("href=\"cycles.csv?appliance=dishwasher\""))
        let csv = page("/cycles.csv", ["appliance": "dishwasher"])
        #expect(csv.status == 200 && csv.contentType.hasPrefix("text/csv"))
        let lines = csv.body.split(separator: "\n")
        #expect(lines.first == Substring(CycleReport.columns.joined(separator: ",")))
        #expect(lines.count == 4, "the header and dishwasher's 3 cycles")
        let first = page("/cycles", ["limit": "2"]).body
        #expect(Self.count("class=\"cycle-row\"", in: first) == 2)
        #expect(first.contains("Cycles 1–2 of 4") && first.contains("href=\"cycles?limit=2&offset=2\""))
        let second = page("/cycles", ["limit": "2", "offset": "2"]).body
        #expect(Self.count("class=\"cycle-row\"", in: second) == 2)
        #expect(second.contains("Cycles 3–4 of 4") && second.contains("rel=\"prev\""))
        #expect(!second.contains("rel=\"next\""))
    }
}
