import Testing

/// `check` asks Supernotify which deliveries it has (`enquire_configuration`), and
/// reads what it can't tell as "can't say".
@Suite struct SupernotifyDeliveriesTests {
    static let path = "POST /api/services/supernotify/enquire_configuration"

    @Test func theDeliveriesAreTheKeysOfItsDeliveryObject() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.override(Self.path, with: .respond(.json("""
            {"changed_states": [], "service_response": {"delivery": {"mobile_push": {"transport": "mobile_push"},
             "plain_email": {"transport": "email", "target": ["a@b.c"]}}, "scenarios": ["home"]}}
            """, status: 200)))
        #expect(await client.supernotifyDeliveries() == .listed(["mobile_push", "plain_email"]))
    }

    @Test func anAnswerWithoutDeliveriesCantSay() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.override(Self.path, with: .respond(.json(#"{"changed_states": [], "service_response": {"links": []}}"#, status: 200)))
        #expect(await client.supernotifyDeliveries() == .cannotSay("its configuration lists no deliveries"))
        ha.override(Self.path, with: .respond(.json("[]", status: 200)))
        guard case .cannotSay(let why) = await client.supernotifyDeliveries() else {
            Issue.record("a list is no answer")
            return
        }
        #expect(why.contains("expected a JSON object with service_response") || why.contains("service_response"), "\(why)")
    }

    @Test func withoutTheActionItCantSayAndSaysWhy() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        // The stand-in has no such action (400) and no WebSocket API.
        guard case .cannotSay(let why) = await client.supernotifyDeliveries() else {
            Issue.record("expected no answer")
            return
        }
        #expect(why.contains("over REST") && why.contains("over WebSocket"), "\(why)")
        #expect(!why.contains(secretToken))
    }
}
