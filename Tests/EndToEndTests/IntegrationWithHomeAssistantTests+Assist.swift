import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Issue 30, item 3, end to end: a step of the integration's scenario (the dishwasher running),
/// on the same Home Assistant. Its own conversation agent, asked through the conversation
/// API (`POST /api/conversation/process`) "when will the dishwasher be done", answers from
/// the integration (docs/INTEGRATION.md, "Assist") with the finish time the phone shows: the
/// service's `finish` (docs/API.md), as HH:MM in Home Assistant's time zone, and the progress;
/// asked in German, in German.
extension IntegrationWithHomeAssistantTests {
    func askAssist() async throws {
        let appliance = try await serviceAppliance("dishwasher")
        let finish = try #require(appliance["finish"] as? String, "a running dishwasher has a finish time: \(appliance)")
        let progress = try #require(appliance["progress"] as? Int, "\(appliance)")
        let (_, configBody) = try await ha.request("GET", "/api/config")
        let config = try #require(try JSONSerialization.jsonObject(with: configBody) as? [String: Any])
        let zone = try #require(TimeZone(identifier: config["time_zone"] as? String ?? ""), "HA's time zone: \(config)")
        let shown = try Self.hourMinute(finish, in: zone)

        let english = try await converse("when will the dishwasher be done", language: "en")
        print("IntegrationWithHomeAssistantTests: Assist answered \"\(english)\" (finish \(finish), \(zone.identifier))")
        #expect(english.contains("is running"), "\(english)")
        #expect(english.contains(shown), "the finish time the phone shows, \(shown) (\(finish)): \(english)")
        #expect(english.contains("\(progress) % done"), "\(english)")
        let german = try await converse("Wann ist der Dishwasher fertig?", language: "de")
        #expect(german.contains("läuft") && german.contains("\(shown) Uhr"), "\(german)")
        let unknown = try await converse("when will the oven be done", language: "en")
        #expect(unknown == "cycletrack knows no appliance or area called oven.", "\(unknown)")
    }

    /// The answer's speech, as the Assist dialog shows it.
    private func converse(_ text: String, language: String) async throws -> String {
        let (status, body) = try await ha.request("POST", "/api/conversation/process", json: ["text": text, "language": language])
        #expect(status == 200, "\(String(decoding: body, as: UTF8.self))")
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        let response = object["response"] as? [String: Any]
        let plain = (response?["speech"] as? [String: Any])?["plain"] as? [String: Any]
        return try #require(plain?["speech"] as? String, "no speech in \(object)")
    }

    /// The appliance as the service's API has it (what the phone is sent).
    private func serviceAppliance(_ id: String) async throws -> [String: Any] {
        let key = try String(contentsOfFile: scratch.path + "/cycletrack.api-key", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        var request = URLRequest(url: try #require(URL(string: serviceURL + "/api/v1/appliances/" + id)))
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func hourMinute(_ iso: String, in zone: TimeZone) throws -> String {
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = try #require(parser.date(from: iso) ?? ISO8601DateFormatter().date(from: iso), "an ISO 8601 time: \(iso)")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
