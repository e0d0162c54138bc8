import HTTPStandIn
import HomeAssistantAPI
import Testing

/// Checks what can be checked of Jinja without Home Assistant: delimiters and block
/// tags balance, in order.
func jinjaStructureProblems(_ template: String) -> [String] {
    var problems: [String] = []
    var blocks: [String] = []
    var rest = Substring(template)
    while let open = rest.firstRange(of: "{") {
        let after = rest[open.upperBound...]
        let closer: String
        switch after.first {
        case "{": closer = "}}"
        case "%": closer = "%}"
        case "#": closer = "#}"
        default:
            rest = after
            continue
        }
        guard let close = after.dropFirst().firstRange(of: closer) else {
            problems.append("unclosed \"{\(after.prefix(1))\" at \(template.distance(from: template.startIndex, to: open.lowerBound))")
            break
        }
        let inner = after.dropFirst()[..<close.lowerBound]
        if inner.contains("{{") || inner.contains("{%") { problems.append("nested delimiter in \(inner)") }
        if closer == "%}" {
            let words = inner.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "\n" })
            if let keyword = words.first.map(String.init) {
                if ["for", "if"].contains(keyword) { blocks.append(keyword) }
                if ["endfor", "endif"].contains(keyword) {
                    if blocks.popLast() != String(keyword.dropFirst(3)) { problems.append("unbalanced \(keyword)") }
                }
            }
        }
        rest = after.dropFirst()[close.upperBound...]
    }
    if !blocks.isEmpty { problems.append("unclosed blocks \(blocks)") }
    return problems
}

@Suite struct HomeAssistantTemplateTests {
    @Test func statesTemplateIsWellFormed() throws {
        let template = try HomeAssistantTemplates.states(of: ["sensor.a", "select.b_active_program", "sensor.1st_floor"])
        #expect(jinjaStructureProblems(template).isEmpty, "\(jinjaStructureProblems(template))")
        #expect(template.contains(#"["sensor.a", "select.b_active_program", "sensor.1st_floor"]"#))
        #expect(template.contains("| tojson"))
    }

    @Test func discoveryTemplateIsWellFormed() {
        let template = HomeAssistantTemplates.discovery
        #expect(jinjaStructureProblems(template).isEmpty, "\(jinjaStructureProblems(template))")
        for function in ["'home_connect', 'miele', 'lg_thinq', 'smartthings', 'whirlpool', 'electrolux_status'",
                         "integration_entities(dom)", "device_id(e)", "device_attr(d, 'name_by_user')",
                         "state_attr(e, 'options')", "namespace("] {
            #expect(template.contains(function))
        }
    }

    @Test func theCheckerFindsBrokenTemplates() {
        #expect(!jinjaStructureProblems("{% for x in y %}{{ x }}").isEmpty)
        #expect(!jinjaStructureProblems("{{ x ").isEmpty)
        #expect(!jinjaStructureProblems("{% if a %}{% endfor %}").isEmpty)
        #expect(jinjaStructureProblems(#"{"a": {% if a %}1{% endif %}}"#).isEmpty)
    }

    @Test(arguments: ["sensor.dishwasher_operation_state", "sensor.geschirrspuler_betriebszustand",
                      "sensor.1st_floor", "select.a", "sensor.x_2"])
    func validEntityIDsAreAccepted(id: String) throws {
        #expect(HomeAssistantTemplates.isValidEntityID(id))
        #expect(try HomeAssistantTemplates.states(of: [id]).contains("\"\(id)\""))
    }

    @Test(arguments: ["", "sensor", "sensor.", ".a", "Sensor.a", "sensor.A", "sensor.a.b", "sensor.a b",
                      #"sensor.a"b"#, "sensor.a'b", "sensor.a}}", "sensor.ä", "sensor.a\\b", "sensor.a\n"])
    func invalidEntityIDsThrow(id: String) {
        #expect(!HomeAssistantTemplates.isValidEntityID(id))
        #expect(throws: HomeAssistantError.invalidIdentifier(what: "entity id", value: id)) {
            try HomeAssistantTemplates.states(of: ["sensor.fine", id])
        }
    }

    /// The stand-in answers the states template from the ids it finds in the text,
    /// which is how the benchmark and the end-to-end tests use it.
    @Test func theStandInRecognisesTheStatesTemplate() async throws {
        let ha = try HomeAssistantStandIn(token: secretToken)
        defer { ha.stop() }
        ha.set(entity: "sensor.b", state: "pause")
        let client = HomeAssistantClient(baseURL: ha.baseURL, token: secretToken, http: HTTPClient())
        let text = try await client.renderTemplate(try HomeAssistantTemplates.states(of: ["sensor.a", "sensor.b"]))
        #expect(text == #"{"sensor.a": null, "sensor.b": {"s": "pause", "u": null, "dc": null}}"#)
    }
}
