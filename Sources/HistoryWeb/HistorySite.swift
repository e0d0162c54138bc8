import CycleCore
import CycleHistory
import FoundationEssentials
import LocalTime

/// The history page's pages, by path, rendered from the history file: `./` (the
/// appliances now), `cycles` (and its `cycles.csv`), `cycle?id=N` and `programs`. Each request opens the file
/// read-only with its own connection and closes it when the page is written: in WAL a
/// reader never blocks `run`'s writes, and nothing is cached between requests.
///
/// Whatever isn't one of these pages, with arguments of the right form, is refused with
/// a 4xx and a short message; a history that isn't there (yet) is a 503.
public struct HistorySite: Sendable {
    public let databasePath: String
    public let timeZone: LocalTimeZone

    /// The longest path and ingress prefix accepted.
    static let maximumPathLength = 256

    public init(databasePath: String, timeZone: LocalTimeZone = .utc) {
        self.databasePath = databasePath
        self.timeZone = timeZone
    }

    public func respond(to request: HistoryRequest, now: Date = Date()) -> HistoryResponse {
        var layout = PageLayout(base: nil, timeZone: timeZone)
        do throws(PageError) {
            guard request.method == "GET" || request.method == "HEAD" else {
                throw PageError(status: 405, message: "the history page is read-only: GET or HEAD, not \(PageQuery.shown(request.method))")
            }
            if let prefix = request.ingressPath {
                layout.base = try Self.ingressBase(prefix)
            }
            // The arguments are checked before the file is opened.
            let prepared = try prepare(Self.page(request.path), query: PageQuery(arguments: request.query, timeZone: timeZone), now: now)
            let store: HistoryStore
            do {
                store = try HistoryStore(path: databasePath, mode: .readOnly)
            } catch {
                throw PageError(status: 503, message: "the history can't be read yet: \(error.description)")
            }
            switch prepared {
            case .csv(let fields):
                return try Self.csv(store, fields: fields, timeZone: timeZone)
            case .page(let render):
                let names = try Self.reading { () throws(StoreError) in try store.applianceNames() }
                let page = try render(store, PageContext(now: now, timeZone: timeZone, names: names))
                return HistoryResponse(status: 200, body: layout.document(title: page.title, section: page.section, body: page.body,
                                                                          refreshSeconds: page.refreshSeconds))
            }
        } catch {
            let headers: [(name: String, value: String)] = error.status == 405 ? [("Allow", "GET, HEAD")] : []
            return HistoryResponse(status: error.status, body: layout.errorDocument(error), headers: headers)
        }
    }

    /// A page rendered: its title, its section in the navigation, its body, and how
    /// often it refreshes itself (nil: never).
    struct RenderedPage {
        var title: String
        var section: PageLayout.Section?
        var body: String
        var refreshSeconds: Int?
    }

    /// What a request asks for, its arguments checked: the CSV's fields, or how to render the page.
    enum PreparedPage {
        case csv(CycleListPage.Fields)
        case page((HistoryStore, PageContext) throws(PageError) -> RenderedPage)
    }

    private func prepare(_ page: Page, query: PageQuery, now: Date) throws(PageError) -> PreparedPage {
        let checking = PageContext(now: now, timeZone: timeZone, names: [:])
        switch page {
        case .now:
            return .page { store, context throws(PageError) in
                let body = try Self.reading { () throws(StoreError) in try AppliancesPage(context: context).render(store) }
                // While a cycle runs the page follows it: the phone's view changes by the minute.
                let refresh = body.contains(AppliancesPage.runningMark) ? AppliancesPage.refreshSeconds : nil
                return RenderedPage(title: "Appliances", section: .now, body: body, refreshSeconds: refresh)
            }
        case .cyclesCSV:
            return .csv(try CycleListPage(context: checking, query: query).fields())
        case .cycles:
            let fields = try CycleListPage(context: checking, query: query).fields()
            return .page { store, context throws(PageError) in
                RenderedPage(title: "Cycles", section: .cycles, body: try Self.reading { () throws(StoreError) in
                    try CycleListPage(context: context, query: query).render(store, fields: fields)
                })
            }
        case .cycle:
            guard let id = try query.integer("id", in: 1...Int64.max) else { throw .badRequest("'id' is required: cycle?id=N") }
            return .page { store, context throws(PageError) in
                guard let cycle = try Self.reading({ () throws(StoreError) in try store.cycle(id: id) }) else {
                    throw .notFound("there is no cycle \(id) in the history")
                }
                return RenderedPage(title: "Cycle \(id)", section: nil, body: try Self.reading { () throws(StoreError) in
                    try CycleTimelinePage(context: context).render(store, cycle: cycle)
                })
            }
        case .programs:
            let appliance = try ProgramStatsPage(context: checking, query: query).appliance()
            return .page { store, context throws(PageError) in
                RenderedPage(title: "Programs", section: .programs, body: try Self.reading { () throws(StoreError) in
                    try ProgramStatsPage(context: context, query: query).render(store, appliance: appliance)
                })
            }
        }
    }

    enum Page {
        case now, cycles, cyclesCSV, cycle, programs
    }

    static func page(_ path: String) throws(PageError) -> Page {
        guard path.hasPrefix("/"), path.utf8.count <= maximumPathLength else {
            throw .badRequest("expected a path like /cycles, got '\(PageQuery.shown(path))'")
        }
        guard !path.contains(".."), !path.contains("//"), !path.contains("\\") else {
            throw .badRequest("the path '\(PageQuery.shown(path))' has '..', '//' or '\\' in it")
        }
        switch path {
        case "/", "/index.html": return .now
        case "/cycles": return .cycles
        case "/cycles.csv": return .cyclesCSV
        case "/cycle": return .cycle
        case "/programs": return .programs
        default: throw .notFound("there is no page \(PageQuery.shown(path)); the pages are ./, cycles, cycles.csv, cycle?id=N and programs")
        }
    }

    /// The `<base href>` for an `X-Ingress-Path` prefix (`/api/hassio_ingress/abc` →
    /// `/api/hassio_ingress/abc/`); a prefix that isn't a plain path is a 400.
    static func ingressBase(_ prefix: String) throws(PageError) -> String {
        let allowed = prefix.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"): true
            default: false
            }
        }
        guard prefix.hasPrefix("/"), prefix.utf8.count <= maximumPathLength, allowed, !prefix.contains(".."), !prefix.contains("//") else {
            throw .badRequest("X-Ingress-Path expects a path like /api/hassio_ingress/TOKEN, got '\(PageQuery.shown(prefix))'")
        }
        return prefix.hasSuffix("/") ? prefix : prefix + "/"
    }

    /// `cycles.csv`: the cycle list's cycles as a download.
    static func csv(_ store: HistoryStore, fields: CycleListPage.Fields, timeZone: LocalTimeZone) throws(PageError) -> HistoryResponse {
        let text = try reading { () throws(StoreError) in try CycleListPage.csv(store, fields: fields, timeZone: timeZone) }
        return HistoryResponse(status: 200, contentType: "text/csv; charset=utf-8", body: text,
                               headers: [("Content-Disposition", "attachment; filename=\"cycles.csv\"")])
    }

    /// Runs a read, turning a store failure into a 503 that says what went wrong.
    static func reading<T>(_ body: () throws(StoreError) -> T) throws(PageError) -> T {
        do {
            return try body()
        } catch {
            throw PageError(status: 503, message: "the history can't be read: \(error.description)")
        }
    }
}
