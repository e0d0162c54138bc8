import CycleCore
/// The Jinja templates cycletrack renders through `POST /api/template`, written for
/// HA's sandboxed Jinja (2024.3 and later): only `states[...]`, `states(...)`,
/// `state_attr`, `integration_entities`, `device_id`, `device_attr`, `namespace` and
/// the `tojson` filter. Every value in the output goes through `tojson`, so the
/// rendered text is JSON whatever the states contain.
public enum HomeAssistantTemplates {
    /// Whether `id` has the shape of an HA entity id: `domain.object_id`, both parts
    /// non-empty, of lowercase ASCII letters, digits and underscores. Such an id can go
    /// into a template inside double quotes as is: it contains no quote or backslash.
    public static func isValidEntityID(_ id: String) -> Bool {
        let parts = id.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy(isIdentifier)
    }

    /// Whether `name` is a valid domain or service name (lowercase letters, digits, underscores).
    public static func isValidName(_ name: String) -> Bool {
        isIdentifier(Substring(name))
    }

    /// The template that renders the state, unit, device class and event type (an event
    /// entity's last event) of each of `entityIDs`:
    ///
    ///     {"sensor.a": {"s": "run", "u": null, "dc": "enum", "ev": null}, "sensor.gone": null}
    ///
    /// one key per id, in order, `null` for an entity HA doesn't have. Ids must be
    /// valid (``isValidEntityID(_:)``), else this throws `.invalidIdentifier`.
    public static func states(of entityIDs: [String]) throws(HomeAssistantError) -> String {
        for id in entityIDs where !isValidEntityID(id) {
            throw .invalidIdentifier(what: "entity id", value: id)
        }
        // Safe to quote by hand: a valid id has no quote, backslash or brace.
        let list = entityIDs.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            {%- set ids = [\(list)] -%}
            {
            {%- for id in ids -%}
            {%- set s = states[id] -%}
            {{ id | tojson }}: {% if s is none %}null{% else %}{"s": {{ s.state | tojson }}, \
            "u": {{ state_attr(id, 'unit_of_measurement') | tojson }}, \
            "dc": {{ state_attr(id, 'device_class') | tojson }}, \
            "ev": {{ state_attr(id, 'event_type') | tojson }}}{% endif %}{% if not loop.last %}, {% endif %}
            {%- endfor -%}
            }
            """
    }

    /// The integration domains discovery reads: every brand profile's (docs/CYCLES.md, "Brands").
    public static let discoveryDomains: [String] = BrandProfile.allCases.compactMap(\.domain)

    /// The template that lists every device of the brands' integrations with its entities:
    ///
    ///     [{"id": "<device id>", "domain": "miele", "name": "...", "manufacturer": "...", "model": "...",
    ///       "entities": [{"id": "sensor.x", "state": "run", "options": [...] | null,
    ///                     "unit": "%" | null, "dc": "timestamp" | null}, ...]}, ...]
    ///
    /// Devices in the order their first entity appears in `integration_entities`, domain by
    /// domain (`home_connect` first); a device is listed once, under the first domain that
    /// has it. Entities without a device are left out (they can't be grouped into an
    /// appliance). `name` is the user's name for the device when set, else the integration's.
    public static let discovery = """
        {%- set ns = namespace(devices=[], domains=[]) -%}
        {%- for dom in \(discoveryDomains.map { "'\($0)'" }.joined(separator: ", ")) -%}
        {%- for e in integration_entities(dom) -%}
        {%- set d = device_id(e) -%}
        {%- if d and d not in ns.devices -%}\
        {%- set ns.devices = ns.devices + [d] -%}{%- set ns.domains = ns.domains + [dom] -%}\
        {%- endif -%}
        {%- endfor -%}
        {%- endfor -%}
        [
        {%- for d in ns.devices -%}
        {%- set dom = ns.domains[loop.index0] -%}
        {"id": {{ d | tojson }}, "domain": {{ dom | tojson }}, \
        "name": {{ (device_attr(d, 'name_by_user') or device_attr(d, 'name')) | tojson }}, \
        "manufacturer": {{ device_attr(d, 'manufacturer') | tojson }}, \
        "model": {{ device_attr(d, 'model') | tojson }}, "entities": [
        {%- for e in integration_entities(dom) if device_id(e) == d -%}
        {"id": {{ e | tojson }}, "state": {{ states(e) | tojson }}, \
        "options": {{ state_attr(e, 'options') | tojson }}, \
        "unit": {{ state_attr(e, 'unit_of_measurement') | tojson }}, \
        "dc": {{ state_attr(e, 'device_class') | tojson }}}{% if not loop.last %}, {% endif %}
        {%- endfor -%}
        ]}{% if not loop.last %}, {% endif %}
        {%- endfor -%}
        ]
        """

    private static func isIdentifier(_ part: Substring) -> Bool {
        !part.isEmpty && part.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_")
        }
    }
}
