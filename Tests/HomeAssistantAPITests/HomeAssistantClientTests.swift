import HTTPStandIn
import HomeAssistantAPI
import Testing

/// A stand-in HA with the secret token, and a client for it.
func standInHA() throws -> (HomeAssistantStandIn, HomeAssistantClient) {
    let ha = try HomeAssistantStandIn(token: secretToken)
    let client = HomeAssistantClient(baseURL: ha.baseURL + "/", token: secretToken,
                                     http: HTTPClient(configuration: .init(connectTimeout: 1, totalTimeout: 2)))
    return (ha, client)
}

/// The error `body` threw, or nil.
func haError<T>(_ body: () async throws(HomeAssistantError) -> T) async -> HomeAssistantError? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error
    }
}

@Suite struct HomeAssistantClientTests {
    @Test func configReadsVersionAndLocation() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let config = try await client.config()
        #expect(config.version == "2024.3.3")
        #expect(config.locationName == "Home")
        #expect(config.timeZone == "Europe/Berlin")
        #expect(config.components.contains("supernotify"))
    }

    @Test func hasServiceFollowsTheServiceList() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        #expect(try await client.hasService(domain: "supernotify", service: "notify"))
        #expect(try await !client.hasService(domain: "supernotify", service: "send"))
        ha.setService(domain: "supernotify", service: "notify", available: false)
        #expect(try await !client.hasService(domain: "supernotify", service: "notify"))
    }

    @Test func wrongTokenIsUnauthorized() async throws {
        let ha = try HomeAssistantStandIn(token: "the-right-one")
        defer { ha.stop() }
        let client = HomeAssistantClient(baseURL: ha.baseURL, token: secretToken, http: HTTPClient())
        let error = await haError { () async throws(HomeAssistantError) in try await client.config() }
        #expect(error == .unauthorized(path: "/api/config"))
    }

    @Test(arguments: [
        (403, HomeAssistantError.forbidden(path: "/api/config")),
        (404, .notFound(path: "/api/config")),
        (500, .server(status: 500, path: "/api/config")),
        (502, .server(status: 502, path: "/api/config")),
        (418, .unexpectedStatus(status: 418, path: "/api/config")),
    ])
    func statusesAreClassified(status: Int, expected: HomeAssistantError) async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.override("GET /api/config", with: .respond(.text("no", status: status)))
        let error = await haError { () async throws(HomeAssistantError) in try await client.config() }
        #expect(error == expected)
        #expect(error?.description.contains("/api/config") == true)
    }

    @Test func malformedTemplateAnswerNamesThePath() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.override("POST /api/template", with: .malformedJSON)
        let error = await haError { () async throws(HomeAssistantError) in
            try await client.states(of: ["sensor.dishwasher_operation_state"])
        }
        guard case .malformedResponse(let what, let path)? = error else {
            Issue.record("expected malformedResponse, got \(String(describing: error))")
            return
        }
        #expect(path == "/api/template")
        #expect(what.contains("states template"))
        #expect(error?.description.contains("/api/template") == true)
    }

    @Test func malformedDiscoveryAnswerIsMalformedResponse() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.override("POST /api/template", with: .respond(.text(#"[{"id": 5}]"#)))
        let error = await haError { () async throws(HomeAssistantError) in try await client.discover() }
        guard case .malformedResponse(let what, "/api/template")? = error else {
            Issue.record("expected malformedResponse at /api/template, got \(String(describing: error))")
            return
        }
        #expect(what.contains("[0]"))
    }

    @Test func templateErrorIsBadRequestWithHAsMessage() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let error = await haError { () async throws(HomeAssistantError) in try await client.renderTemplate("{{ nope( }}") }
        guard case .badRequest(let path, let excerpt)? = error else {
            Issue.record("expected badRequest, got \(String(describing: error))")
            return
        }
        #expect(path == "/api/template")
        #expect(excerpt.contains("Error rendering template"))
    }

    @Test func statesReportsEachEntityAndNilForMissingOnes() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.set(entity: "sensor.dishwasher_operation_state", state: "run", deviceClass: "enum",
               options: ["inactive", "run", "finished"])
        ha.set(entity: "sensor.dishwasher_program_progress", state: "42", unit: "%")
        ha.set(entity: "sensor.oven_temperature", state: "unavailable", unit: "°C", deviceClass: "temperature")
        let ids = ["sensor.dishwasher_operation_state", "sensor.dishwasher_program_progress",
                   "sensor.oven_temperature", "sensor.not_there", "sensor.dishwasher_program_progress"]
        let states = try await client.states(of: ids)
        #expect(states.count == 4)
        #expect(states["sensor.dishwasher_operation_state"] == .some(EntityState(state: "run", deviceClass: "enum")))
        #expect(states["sensor.dishwasher_program_progress"] == .some(EntityState(state: "42", unit: "%")))
        #expect(states["sensor.oven_temperature"] == .some(EntityState(state: "unavailable", unit: "°C",
                                                                        deviceClass: "temperature")))
        #expect(states["sensor.not_there"] == .some(nil))
        #expect(ha.requests.filter { $0 == "POST /api/template" }.count == 1)
    }

    /// An event entity's `event_type` (`ev` in the states template's answer; docs/CYCLES.md,
    /// "Roles", `error_reason`); an answer without `ev` reads as no event type.
    @Test func statesCarryAnEventEntitysEventType() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let answer = #"{"event.washer_error": {"s": "2026-12-02T10:15:00.000+00:00", "u": null, "dc": null, "#
            + #""ev": "water_supply_error"}, "sensor.washer_state": {"s": "error", "u": null, "dc": "enum"}}"#
        ha.override("POST /api/template", with: .respond(.text(answer)))
        let states = try await client.states(of: ["event.washer_error", "sensor.washer_state"])
        let event = try #require(states["event.washer_error"] ?? nil)
        #expect(event == EntityState(state: "2026-12-02T10:15:00.000+00:00", eventType: "water_supply_error"))
        #expect(event.roleText == "water_supply_error 2026-12-02T10:15:00.000+00:00")
        #expect(states["sensor.washer_state"] == .some(EntityState(state: "error", deviceClass: "enum")))
        #expect(try HomeAssistantTemplates.states(of: ["event.washer_error"]).contains("state_attr(id, 'event_type')"))
    }

    @Test func statesOfNothingSendsNothing() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        #expect(try await client.states(of: []).isEmpty)
        #expect(ha.requests.isEmpty)
    }

    @Test func invalidEntityIDIsRefusedBeforeSending() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let error = await haError { () async throws(HomeAssistantError) in
            try await client.states(of: ["sensor.ok", #"sensor.x"}}{{ 1"#])
        }
        guard case .invalidIdentifier(what: "entity id", _)? = error else {
            Issue.record("expected invalidIdentifier, got \(String(describing: error))")
            return
        }
        #expect(ha.requests.isEmpty)
    }

    @Test func serviceCallThatSucceedsIsRecordedVerbatim() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let body = #"{"title": "Dishwasher", "message": "Eco 50°C", "force_resend": true}"#
        let outcome = await client.callService(domain: "supernotify", service: "notify", body: body)
        #expect(outcome.status == 200)
        #expect(outcome.error == nil)
        #expect(outcome.succeeded)
        #expect(outcome.latencyMs >= 0)
        #expect(ha.notifyCalls.map(\.body) == [body])
    }

    @Test(arguments: [
        (400, HomeAssistantError.badRequest(path: "/api/services/supernotify/notify",
                                            excerpt: #"{"message": "Service supernotify.notify not found."}"#)),
        (401, .unauthorized(path: "/api/services/supernotify/notify")),
        (500, .server(status: 500, path: "/api/services/supernotify/notify")),
    ])
    func serviceCallFailuresAreOutcomes(status: Int, expected: HomeAssistantError) async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.scriptServiceStatuses([status])
        let outcome = await client.callService(domain: "supernotify", service: "notify", body: "{}")
        #expect(outcome.status == status)
        #expect(outcome.error == expected)
        #expect(ha.notifyCalls.map(\.status) == [status])
    }

    @Test func serviceCallToNothingIsUnreachable() async throws {
        let port = try HTTPStandIn.unusedPort()
        let client = HomeAssistantClient(baseURL: "http://127.0.0.1:\(port)", token: secretToken, http: HTTPClient())
        let outcome = await client.callService(domain: "supernotify", service: "notify", body: "{}")
        #expect(outcome.status == nil)
        guard case .unreachable(let error)? = outcome.error else {
            Issue.record("expected unreachable, got \(String(describing: outcome.error))")
            return
        }
        #expect(error.kind == .refused)
        #expect(error.url.hasSuffix("/api/services/supernotify/notify"))
    }

    @Test func serviceNameIsValidated() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        let outcome = await client.callService(domain: "supernotify/../x", service: "notify", body: "{}")
        #expect(outcome.status == nil)
        #expect(outcome.error == .invalidIdentifier(what: "service domain", value: "supernotify/../x"))
        #expect(ha.requests.isEmpty)
    }

    @Test func aClientKeepsOneConnectionAcrossCalls() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.set(entity: "sensor.a", state: "1")
        _ = try await client.config()
        _ = try await client.states(of: ["sensor.a"])
        _ = await client.callService(domain: "supernotify", service: "notify", body: "{}")
        #expect(ha.acceptedConnections == 1)
    }

    @Test func theTokenAppearsInNoErrorAndNotInTheClient() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        var errors: [HomeAssistantError] = []
        let faults: [(String, HTTPStandIn.Reply)] = [
            ("GET /api/config", .respond(.text("x", status: 401))),
            ("GET /api/config", .respond(.text("x", status: 403))),
            ("GET /api/config", .respond(.text("x", status: 404))),
            ("GET /api/config", .respond(.text("x", status: 500))),
            ("GET /api/config", .malformedJSON),
            ("GET /api/config", .hugeBody(bytes: 50 * 1024 * 1024)),
            ("GET /api/config", .neverAnswer),
            ("GET /api/config", .closeWithoutAnswer),
        ]
        for (route, reply) in faults {
            ha.override(route, with: reply)
            if let error = await haError({ () async throws(HomeAssistantError) in try await client.config() }) {
                errors.append(error)
            }
        }
        // A server that echoes the request's Authorization header in its 400 answer.
        let echo = try HTTPStandIn { request in
            .respond(.text("bad request from \(request.headers["authorization"] ?? "")", status: 400))
        }
        defer { echo.stop() }
        let echoed = HomeAssistantClient(baseURL: echo.baseURL, token: secretToken, http: HTTPClient())
        if let error = await echoed.callService(domain: "supernotify", service: "notify", body: "{}").error {
            errors.append(error)
        }
        let port = try HTTPStandIn.unusedPort()
        let nowhere = HomeAssistantClient(baseURL: "http://127.0.0.1:\(port)", token: secretToken, http: HTTPClient())
        if let error = await haError({ () async throws(HomeAssistantError) in try await nowhere.hasService(domain: "a", service: "b") }) {
            errors.append(error)
        }
        if let error = await haError({ () async throws(HomeAssistantError) in try await client.states(of: ["bad id"]) }) {
            errors.append(error)
        }
        #expect(errors.count == faults.count + 3)
        for error in errors {
            for text in [error.description, error.debugDescription, String(reflecting: error), "\(error)"] {
                #expect(!text.contains(secretToken), "token in: \(text)")
            }
        }
        var dumped = ""
        dump(client, to: &dumped)
        for text in [client.description, String(reflecting: client), "\(client)", dumped] {
            #expect(!text.contains(secretToken), "token in: \(text)")
        }
    }

    @Test func discoveryAgainstTheStandIn() async throws {
        let (ha, client) = try standInHA()
        defer { ha.stop() }
        ha.set(entity: "sensor.geschirrspuler_betriebszustand", state: "ready", deviceClass: "enum",
               options: ["inactive", "ready", "delayedstart", "run", "pause", "actionrequired", "finished", "error", "aborting"])
        ha.set(entity: "sensor.geschirrspuler_programmfortschritt", state: "unavailable", unit: "%")
        ha.set(entity: "sensor.kaffee_zaehler", state: "12")
        ha.setDevices([
            .init(id: "0123456789abcdef0123456789abcdef", name: "Dishwasher", nameByUser: "Geschirrspüler",
                  entityIDs: ["sensor.geschirrspuler_betriebszustand", "sensor.geschirrspuler_programmfortschritt"]),
            .init(id: "fedcba9876543210fedcba9876543210", name: "Coffee", entityIDs: ["sensor.kaffee_zaehler"]),
        ])
        let result = try await client.discoverDevices()
        #expect(result.devices == [DiscoveredDevice(
            deviceID: "0123456789abcdef0123456789abcdef", applianceID: "0123456789abcdef0123456789abcdef",
            name: "Geschirrspüler", manufacturer: "BSH",
            entities: [.operationState: "sensor.geschirrspuler_betriebszustand",
                       .progress: "sensor.geschirrspuler_programmfortschritt"],
            units: [.progress: "%"], sources: [.operationState: .fallback, .progress: .fallback])])
        #expect(result.skipped.map(\.deviceID) == ["fedcba9876543210fedcba9876543210"])
        // This stand-in has no WebSocket (like a proxy that drops upgrades): every role by the fallback.
        #expect(result.registryProblem?.contains("WebSocket upgrade") == true)
        #expect(try await client.discover() == result.devices)
    }

    /// The registry read over the WebSocket (`config/entity_registry/get_entries`): a
    /// Miele washer's roles by its translation keys, its percentage forecast taking none.
    @Test func discoveryReadsTheIntegrationsKeysFromTheRegistry() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken, webSocketAccept: WebSocketHandshake.acceptValue(for:))
        let client = HomeAssistantClient(baseURL: ha.baseURL, token: secretToken,
                                         http: HTTPClient(configuration: .init(connectTimeout: 1, totalTimeout: 2)))
        defer { ha.stop() }
        let status = ["off", "on", "in_use", "pause", "program_ended", "failure", "programmed"]
        ha.set(entity: "sensor.w_status", state: "in_use", deviceClass: "enum", options: status)
        ha.set(entity: "sensor.w_remaining", state: "42", unit: "min", deviceClass: "duration")
        ha.set(entity: "sensor.w_forecast", state: "70", unit: "%")
        ha.setRegistry(entity: "sensor.w_status", platform: "miele", translationKey: "status", uniqueID: "1-state_status")
        ha.setRegistry(entity: "sensor.w_remaining", platform: "miele", translationKey: "remaining_time",
                       uniqueID: "1-state_remaining_time", originalDeviceClass: "duration")
        ha.setRegistry(entity: "sensor.w_forecast", platform: "miele", translationKey: "energy_forecast",
                       uniqueID: "1-energy_forecast")
        ha.setDevices([.init(id: "0123456789abcdef0123456789abcdef", name: "Washing machine",
                             entityIDs: ["sensor.w_forecast", "sensor.w_remaining", "sensor.w_status"], domain: "miele")])
        let result = try await client.discoverDevices()
        #expect(result.registryProblem == nil)
        let washer = try #require(result.devices.first)
        #expect(washer.entities == [.operationState: "sensor.w_status", .remainingTime: "sensor.w_remaining"])
        #expect(washer.sources == [.operationState: .table, .remainingTime: .table])
    }
}
