import LocalTime
import CycleHistory
import FoundationEssentials
import LocalTime

/// The frame every page shares: the document head with the one inline stylesheet
/// (light and dark), the navigation, and the `<base>` that makes the relative links
/// resolve under Home Assistant's ingress prefix.
///
/// Every link on every page is relative (`./`, `cycles`, `cycle?id=3`) and every page
/// lives at the top level, so the pages work under any prefix. Behind ingress the
/// Supervisor names the prefix in `X-Ingress-Path`; the page then carries
/// `<base href="PREFIX/">`, so its links resolve from the prefix even when the
/// browser's address lacks the trailing slash.
struct PageLayout {
    enum Section: String, CaseIterable {
        case now = "./", cycles, programs

        var title: String {
            switch self {
            case .now: "Now"
            case .cycles: "Cycles"
            case .programs: "Programs"
            }
        }
    }

    /// The ingress prefix, already checked (see `HistorySite.ingressBase`).
    var base: String?
    /// The zone the pages' times are in, said under every page.
    var timeZone: LocalTimeZone = .utc

    /// - Parameter refreshSeconds: reload the page this often (the Now page while a cycle
    ///   runs); the page allows no script, so it is a `<meta http-equiv="refresh">`.
    func document(title: String, section: Section?, body: String, refreshSeconds: Int? = nil) -> String {
        let baseTag = base.map { "<base href=\"\(HTML.escape($0))\">\n" } ?? ""
        let refresh = refreshSeconds.map { "<meta http-equiv=\"refresh\" content=\"\($0)\">\n" } ?? ""
        let links = Section.allCases.map { item in
            let current = item == section ? " aria-current=\"page\"" : ""
            return "<a href=\"\(item.rawValue)\"\(current)>\(item.title)</a>"
        }.joined()
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            \(baseTag)\(refresh)<title>\(HTML.escape(title)) · cycletrack</title>
            <link rel="icon" href="data:,">
            <style>\(Self.style)</style>
            </head>
            <body>
            <header><span class="brand">cycletrack</span><nav>\(links)</nav></header>
            <main>
            \(body)
            </main>
            \(footer)
            </body>
            </html>

            """
    }

    /// Which zone the times are in; a `TZ` that names no readable zone is said, not hidden.
    var footer: String {
        let offset = LocalTimeZone.fixed(secondsFromGMT: timeZone.secondsFromGMT(for: Date())).name
        let zone = timeZone.name == offset ? offset : "\(timeZone.name) (\(offset) now)"
        var html = "<footer id=\"time-zone\">Times are in \(HTML.escape(zone))."
        if let unreadable = timeZone.unreadable {
            html += " <span class=\"error\" id=\"time-zone-unknown\">TZ=\(HTML.escape(unreadable)) names no time zone this system knows, so UTC is used; set TZ to a zone such as Europe/Berlin.</span>"
        }
        return html + "</footer>"
    }

    /// The small page for a refused request: the status and what was wrong, nothing else.
    func errorDocument(_ error: PageError) -> String {
        let heading = switch error.status {
        case 400: "Bad request"
        case 404: "Not found"
        case 405: "Method not allowed"
        case 503: error.message.contains("does not exist") ? "No history yet" : "The history can't be read"
        default: "Error"
        }
        return document(title: heading, section: nil, body: """
            <h1>\(heading)</h1>
            <p class="error">\(HTML.escape(error.message))</p>
            <p><a href="./">Back to the appliances</a></p>
            """)
    }

    /// The one stylesheet. Every text colour and the background it is drawn on pass
    /// WCAG AA (4.5:1) in light and dark (checked by a test that reads this text).
    static let style = """
        :root{--bg:#f6f7f9;--card:#fff;--text:#1c2430;--muted:#5d6876;--line:#dde2e8;--accent:#1769e0;--on-fill:#fff;\
        --good:#17793f;--warn:#9a5300;--bad:#c8302c;--grid:#e7ebf0;--soft:#eef2f7;\
        --k-start:#17793f;--k-quiet:#5f6b7a;--k-progress:#1769e0;--k-clear:#9a5300;--k-end:#7b33e6;--k-reminder:#b0286e;\
        --power:#9a5300;--temp:#c8302c}
        @media (prefers-color-scheme:dark){:root{--bg:#111418;--card:#1b2027;--text:#e6e9ee;--muted:#9aa4b1;\
        --line:#2c333d;--accent:#5c9dff;--on-fill:#111418;--good:#4cc27e;--warn:#f0a040;--bad:#ff6b66;--grid:#262d36;--soft:#232a33;\
        --k-start:#4cc27e;--k-quiet:#9aa4b1;--k-progress:#5c9dff;--k-clear:#f0a040;--k-end:#b58cff;--k-reminder:#ff8cc6;\
        --power:#f0a040;--temp:#ff6b66}}
        *{box-sizing:border-box}
        body{margin:0;background:var(--bg);color:var(--text);font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
        header{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.2rem;padding:.7rem 1rem;background:var(--card);\
        border-bottom:1px solid var(--line)}
        .brand{font-weight:700;letter-spacing:.02em}
        nav{display:flex;gap:.3rem}
        nav a{padding:.25rem .7rem;border-radius:999px;color:var(--text);text-decoration:none}
        nav a[aria-current]{background:var(--accent);color:var(--on-fill)}
        main{max-width:980px;margin:0 auto;padding:1rem}
        footer{max-width:980px;margin:0 auto;padding:0 1rem 1.5rem;font-size:.8rem;color:var(--muted)}
        h1{font-size:1.35rem;margin:.3rem 0 .8rem}
        h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
        h3{font-size:1rem;margin:.2rem 0 .4rem}
        h3.spaced{margin-top:1rem}
        a{color:var(--accent)}
        .muted{color:var(--muted)}
        .error{color:var(--bad)}
        .warn{color:var(--warn)}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(280px,1fr));gap:1rem}
        .card{background:var(--card);border:1px solid var(--line);border-radius:14px;padding:1rem}
        .card header,.card>header{all:unset;display:flex;justify-content:space-between;align-items:baseline;gap:.5rem}
        .state{font-size:.8rem;padding:.1rem .55rem;border-radius:999px;background:var(--soft);color:var(--muted);white-space:nowrap}
        .state.running{background:var(--accent);color:var(--on-fill)}
        .state.finished{background:var(--good);color:var(--on-fill)}
        .state.aborted,.state.failed,.state.lost,.state.overdue{background:var(--bad);color:var(--on-fill)}
        .bar{height:10px;border-radius:5px;background:var(--soft);overflow:hidden;margin:.5rem 0}
        .bar>span{display:block;height:100%;background:var(--accent);border-radius:5px}
        .phone{margin-top:.8rem;padding:.7rem .8rem;border-radius:12px;background:var(--soft);font-size:.92rem}
        .phone .label{font-size:.72rem;text-transform:uppercase;letter-spacing:.06em;color:var(--muted)}
        .phone b{display:block}
        dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .8rem;margin:.6rem 0 0}
        dt{color:var(--muted)}dd{margin:0}
        form.filters{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:.6rem;align-items:end;\
        background:var(--card);border:1px solid var(--line);border-radius:14px;padding:.8rem;margin-bottom:1rem}
        label{display:flex;flex-direction:column;font-size:.8rem;color:var(--muted);gap:.2rem}
        input,select,button{font:inherit;color:var(--text);background:var(--bg);border:1px solid var(--line);border-radius:8px;padding:.35rem .5rem}
        button{background:var(--accent);color:var(--on-fill);border:0;cursor:pointer}
        .table-wrap{overflow-x:auto;background:var(--card);border:1px solid var(--line);border-radius:14px}
        table{border-collapse:collapse;width:100%;font-size:.9rem}
        th,td{padding:.45rem .6rem;text-align:left;border-bottom:1px solid var(--line);white-space:nowrap}
        th{font-weight:600;color:var(--muted);font-size:.8rem}
        tr:last-child td{border-bottom:0}
        td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
        td.reason{white-space:normal;min-width:14rem}
        .pager{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.6rem 0}
        .chart-wrap{overflow-x:auto}
        .chart{width:100%;height:auto;display:block}
        .chart text{fill:var(--muted);font-size:12px;font-family:inherit}
        .chart .grid{stroke:var(--grid);stroke-width:1}
        .chart .axis{stroke:var(--line);stroke-width:1}
        .chart .series{fill:none;stroke:var(--accent);stroke-width:2.2;stroke-linejoin:round}
        .chart .area{fill:var(--accent);opacity:.12}
        .chart .estimate{fill:none;stroke:var(--warn);stroke-width:2.2}
        .chart .shown{fill:none;stroke:var(--accent);stroke-width:2.2;stroke-dasharray:6 3}
        .chart .actual{stroke:var(--good);stroke-width:1.5;stroke-dasharray:5 4}
        .chart .power{fill:none;stroke:var(--power);stroke-width:1.8}
        .chart .temperature{fill:none;stroke:var(--temp);stroke-width:1.8;stroke-dasharray:3 2}
        .chart .dot{fill:var(--accent)}
        .chart .bar-rect{fill:var(--accent);opacity:.8}
        .chart .median{stroke:var(--good);stroke-width:1.5;stroke-dasharray:4 3}
        .chart .p90{stroke:var(--warn);stroke-width:1.5;stroke-dasharray:4 3}
        .chart .zero{stroke:var(--text);stroke-width:1;opacity:.5}
        .push-marker line{stroke-width:1.2;stroke-dasharray:2 3;opacity:.7}
        .push-marker circle{stroke-width:2}
        .kind-start{stroke:var(--k-start);fill:var(--k-start)}
        .kind-quiet{stroke:var(--k-quiet);fill:var(--k-quiet)}
        .kind-progress{stroke:var(--k-progress);fill:var(--k-progress)}
        .kind-clear{stroke:var(--k-clear);fill:var(--k-clear)}
        .kind-end{stroke:var(--k-end);fill:var(--k-end)}
        .kind-reminder{stroke:var(--k-reminder);fill:var(--k-reminder)}
        .push-marker.held circle{fill:var(--card)}
        .push-marker.replayed circle{fill:var(--card);stroke-dasharray:2 2}
        .legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;font-size:.8rem;color:var(--muted);margin:.3rem 0 0}
        .legend i{display:inline-block;width:.7rem;height:.7rem;border-radius:50%;margin-right:.3rem;vertical-align:-1px}
        .legend i.held{background:transparent!important;border:2px solid var(--muted)}
        .legend i.replayed{background:transparent!important;border:2px dashed var(--muted)}
        .legend i.line{border-radius:0;height:.2rem;vertical-align:.2rem}
        .swatch-start{background:var(--k-start)}.swatch-quiet{background:var(--k-quiet)}.swatch-progress{background:var(--k-progress)}
        .swatch-clear{background:var(--k-clear)}.swatch-end{background:var(--k-end)}.swatch-reminder{background:var(--k-reminder)}
        .swatch-power{background:var(--power)}.swatch-temperature{background:var(--temp)}
        .pill{font-size:.75rem;padding:.05rem .45rem;border-radius:999px;background:var(--k-quiet);color:var(--on-fill)}
        .pill.kind-start{background:var(--k-start)}.pill.kind-quiet{background:var(--k-quiet)}
        .pill.kind-progress{background:var(--k-progress)}.pill.kind-clear{background:var(--k-clear)}.pill.kind-end{background:var(--k-end)}
        .pill.kind-reminder{background:var(--k-reminder)}
        .figures{display:grid;grid-template-columns:repeat(auto-fill,minmax(130px,1fr));gap:.6rem;margin:.6rem 0}
        .figure{background:var(--soft);border-radius:10px;padding:.5rem .7rem}
        .figure b{display:block;font-size:1.1rem}
        .figure span{font-size:.78rem;color:var(--muted)}
        .card.program{margin-top:1rem}
        .card h2{margin-top:0}
        form.filters button{justify-self:start;padding:.4rem 1.2rem}
        .charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:.8rem}
        @media (max-width:640px){main{padding:.6rem}.chart.wide{min-width:600px}\
        table.cards-on-phone thead{display:none}\
        table.cards-on-phone tr{display:grid;grid-template-columns:1fr 1fr;gap:.1rem .8rem;padding:.5rem .6rem;border-bottom:1px solid var(--line)}\
        table.cards-on-phone td{border:0;padding:.1rem 0;white-space:normal;text-align:left;min-width:0}\
        table.cards-on-phone td.reason{grid-column:1/-1;min-width:0}table.cards-on-phone td:empty{display:none}\
        table.cards-on-phone td::before{content:attr(data-label);display:block;font-size:.72rem;color:var(--muted)}}
        """
}
