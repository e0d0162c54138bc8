import Foundation
import Testing
@testable import CycleCore

/// docs/PLUGS.md states the levels and rest waits of a new plug: they are what the code decides.
@Suite struct PlugDocsTests {
    static let doc = (try? String(decoding: Data(contentsOf: URL(filePath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "docs/PLUGS.md")), as: UTF8.self)) ?? ""

    /// The last cell of the table row starting with `| <first> |`.
    static func row(_ first: String) -> [String]? {
        doc.split(separator: "\n").first { $0.hasPrefix("| \(first) |") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func theLevelsOfANewPlugAreTheDocs() throws {
        let levels = PlugLevels(PowerSettings(), PlugSignature())
        let shown = [("standby", levels.standby), ("active", levels.active), ("rest", levels.rest), ("work", levels.work)]
        for (name, watts) in shown {
            let cells = try #require(Self.row(name), "docs/PLUGS.md has no row for \(name)")
            #expect(cells.last == "\(NumberText.plain(watts)) W", "\(name): \(cells)")
        }
    }

    @Test func theRestWaitsOfANewPlugAreTheDocs() throws {
        let off = PowerSettings().offSeconds
        let rows: [(String, PlugKind)] = [("washer, washer-dryer, other", .washer), ("dryer", .dryer), ("dishwasher", .dishwasher)]
        for (name, kind) in rows {
            // The rest-wait table's row: its second cell is a time.
            let cells = try #require(Self.doc.split(separator: "\n").filter { $0.hasPrefix("| \(name) |") }
                .map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
                .first { $0.count == 3 && ($0[1].first?.isNumber ?? false) }, "docs/PLUGS.md has no rest wait for \(name)")
            let minutes = kind.restWait(off: off) / 60
            #expect(cells[1].hasPrefix("\(NumberText.plain(minutes)) min"), "\(name): \(cells)")
            let least = kind.shortestRestWait(off: off) / 60
            #expect(cells[2].hasSuffix("at least \(NumberText.plain(least)) min"), "\(name): \(cells)")
            #expect(cells[2].hasPrefix("\(NumberText.plain(PlugKind.learnedRestMargin)) × the longest learned rest + 1 min"), "\(cells)")
        }
        #expect(PlugKind.washerDryer.restWait(off: off) == PlugKind.washer.restWait(off: off))
    }

    @Test func theDocsListTheWordsOfEachKind() {
        let doc = Self.doc.replacingOccurrences(of: "\n", with: " ")
        for word in PlugKind.dishwasherWords + PlugKind.washerWords + PlugKind.dryerWords {
            #expect(doc.contains(" \(word),") || doc.contains(" \(word))") || doc.contains("(\(word),"),
                    "docs/PLUGS.md doesn't list \(word)")
        }
    }

    @Test func theNameSaysTheKind() {
        #expect(PlugKind.of(id: "smartplug_wasmachine", name: "Wasmachine") == .washer)
        #expect(PlugKind.of(id: "vaatwasser", name: "Vaatwasser") == .dishwasher)
        #expect(PlugKind.of(id: "lave_vaisselle", name: "Lave-vaisselle") == .dishwasher)
        #expect(PlugKind.of(id: "dishwasher", name: "Dishwasher") == .dishwasher)
        #expect(PlugKind.of(id: "combo", name: "Washer dryer") == .washerDryer)
        #expect(PlugKind.of(id: "waschmaschine", name: "Waschmaschine") == .washer)
        #expect(PlugKind.of(id: "trockner", name: "Trockner") == .dryer)
        #expect(PlugKind.of(id: "kettle", name: "Kettle") == .other)
    }
}

/// What `cycletrack check` shows of a plug: its kind and what it learned.
@Suite struct PlugSignatureTests {
    @Test func aPlugLearnsItsStandbyIntervalAndRestsAndSaysSo() {
        var signature = PlugSignature()
        #expect(signature.summary(kind: .washer) == "kind washer, standby not seen yet, reporting interval not seen yet, 0 cycles seen")
        signature.idle(2.0, for: 600)
        signature.idle(2.4, for: 1800)
        signature.gap(20)
        signature.gap(3600)  // a plug saying nothing while the power holds: no interval
        signature.finished(rest: 420, pumpOut: false)
        #expect(signature.standbyWatts.map { $0 > 2.0 && $0 < 2.4 } == true)
        #expect(signature.intervalSeconds == 20)
        #expect(signature.longestRest == 420)
        #expect(signature.summary(kind: .washer).hasSuffix("a reading every 20 s, 1 cycle seen, longest rest 7.0 min, ends without a pump-out"))
    }

    @Test func aStandbyOf2WRaisesThePlugsLevels() {
        var signature = PlugSignature()
        signature.idle(2.0, for: 3600)
        let levels = PlugLevels(PowerSettings(), signature)
        #expect(levels.standby == 3.3)
        #expect(levels.rest == 10)
        #expect(levels.work == 30)
    }
}
