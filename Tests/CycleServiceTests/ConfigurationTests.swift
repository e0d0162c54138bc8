@testable import CycleService
import FoundationEssentials
import TestSupport
import Testing

@Suite struct ConfigurationTests {
    private func parse(_ json: String) throws(ConfigurationError) -> Configuration {
        try ConfigurationLoader.parse(Data(json.utf8), file: "test.json")
    }

    @Test func emptyObjectGivesTheDocumentedDefaults() throws {
        let config = try parse("{}")
        #expect(config.pollActiveSeconds == 10)
        #expect(config.pollIdleSeconds == 30)
        #expect(config.mobileDeliveries == ["mobile_push"])
        #expect(config.dailyPushLimit == 400)
        #expect(config.discover)
        #expect(config.appliances.isEmpty)
        let settings = config.defaultSettings(id: "dish_washer")
        #expect(settings.name == "Dish washer")
        #expect(settings.cyclePushLimit == 18)
        #expect(settings.steps == .default)
        #expect(settings.notifyStart && settings.notifyEnd && !settings.notifyProgress)
    }

    @Test func theSpecExampleIsReadWhole() throws {
        let config = try parse(Self.specExample)
        #expect(config.homeAssistantURL == "http://homeassistant.local:8123")
        #expect(config.tokenFile == "/run/secrets/ha_token")
        #expect(config.database == "/data/cycletrack.sqlite")
        #expect(config.target == ["person.alice", "person.bob"])
        #expect(config.texts.finished == "{name} finished")
        let dishwasher = try #require(config.appliance("dishwasher"))
        #expect(dishwasher.entities[.operationState] == "sensor.dishwasher_operation_state")
        #expect(dishwasher.entities[.temperature] == nil)
        #expect(dishwasher.unmapped == [.temperature, .power])
        #expect(dishwasher.settings.target == ["person.alice"])
        #expect(dishwasher.settings.color == "#1E88E5")
        #expect(dishwasher.settings.relevance == 0.5)
        #expect(dishwasher.settings.dashboard == "/dashboard-kitchen")
        #expect(dishwasher.settings.steps == .regular(step: 10, fineFrom: 90, fineStep: 2))
        #expect(dishwasher.settings.lostAfterMinutes == 360)
    }

    @Test func appliancesInheritGlobalTargetTextsAndDeliveries() throws {
        let config = try parse("""
            {"target": ["person.alice"], "supernotify": {"mobile_deliveries": ["phones"]},
             "texts": {"finished": "{name} fertig", "paused": "Pause"},
             "appliances": [{"id": "a", "entities": {"operation_state": "sensor.a"}},
                            {"id": "b", "target": [], "texts": {"paused": "Angehalten"}, "entities": {"operation_state": "sensor.b"}}]}
            """)
        let a = try #require(config.appliance("a")).settings
        let b = try #require(config.appliance("b")).settings
        #expect(a.target == ["person.alice"])
        #expect(a.mobileDeliveries == ["phones"])
        #expect(a.texts.finished == "{name} fertig")
        #expect(b.target == [])
        #expect(b.texts.paused == "Angehalten")
        #expect(b.texts.finished == "{name} fertig")
    }

    @Test func theAnomalyNotesTextsAreSetLikeTheOthers() throws {
        let config = try parse("""
            {"texts": {"error_because": "Störung: {reason}", "door_open": "Tür auf"},
             "appliances": [{"id": "a", "texts": {"error": "Störung"}, "entities": {"operation_state": "sensor.a"}}]}
            """)
        let a = try #require(config.appliance("a")).settings
        #expect(a.texts.errorBecause == "Störung: {reason}")
        #expect(a.texts.doorOpen == "Tür auf")
        #expect(a.texts.errorState == "Störung")
        #expect(throws: ConfigurationError.self) { try parse(#"{"texts": {"error_because": "{cause}"}}"#) }
    }

    @Test func stepsInBothForms() throws {
        let regular = try parse(#"{"appliances": [{"id": "a", "progress_steps": {"step": 5}}]}"#)
        #expect(regular.appliance("a")?.settings.steps == .regular(step: 5, fineFrom: 90, fineStep: 2))
        let list = try parse(#"{"appliances": [{"id": "a", "progress_steps": {"at": [25, 50, 75]}}]}"#)
        #expect(list.appliance("a")?.settings.steps == .at([25, 50, 75]))
        #expect(try ConfigurationLoader.parseSteps(#"{"step":20,"fine_step":5}"#, origin: "--steps") == .regular(step: 20, fineFrom: 90, fineStep: 5))
    }

    @Test func learningKeys() throws {
        let config = try parse(#"""
            {"texts": {"unload_reminder": "{name}: {program} fertig seit {minutes} min"},
             "appliances": [{"id": "washer", "finish_correction": false, "unload_reminder_minutes": 45,
                             "unload_reminder_repeats": 0},
                            {"id": "dishwasher"}]}
            """#)
        let washer = try #require(config.appliance("washer")?.settings)
        #expect(washer.finishCorrection == false)
        #expect(washer.unloadReminderMinutes == 45)
        #expect(washer.unloadReminderRepeats == 0)
        #expect(washer.texts.unloadReminder == "{name}: {program} fertig seit {minutes} min")
        let dishwasher = try #require(config.appliance("dishwasher")?.settings)
        #expect(dishwasher.finishCorrection == true)
        #expect(dishwasher.unloadReminderMinutes == nil, "by kind: 30 for washers and dryers, else off")
        #expect(dishwasher.unloadReminderRepeats == 2)
    }

    static let errors: [(json: String, message: String)] = [
        (#"{"pol": {}}"#, "test.json: unknown key 'pol' (did you mean 'poll'?)"),
        (#"{"appliances": [{"id": "a", "notify_ned": true}]}"#, "test.json: unknown key 'appliances[0].notify_ned' (did you mean 'notify_end'?)"),
        (#"{"poll": {"active_seconds": "10"}}"#, "test.json: 'poll.active_seconds' expects a number from 1 to 3600, found the string \"10\""),
        (#"{"discover": "yes"}"#, "test.json: 'discover' expects true or false, found the string \"yes\""),
        (#"{"appliances": [{"name": "x"}]}"#, "test.json: 'appliances[0].id' is required: [A-Za-z0-9_-], 1 to 50 characters"),
        (#"{"appliances": [{"id": "dish washer"}]}"#, "test.json: 'appliances[0].id' expects 1 to 50 of [A-Za-z0-9_-] (it becomes the notification tag), found \"dish washer\""),
        (#"{"appliances": [{"id": "a"}, {"id": "a"}]}"#, "test.json: 'appliances[1].id' repeats the id 'a'; each appliance needs its own"),
        (#"{"appliances": [{"id": "a", "entities": {"progress": "progress"}}]}"#, "test.json: 'appliances[0].entities.progress' expects an entity id like \"sensor.dishwasher_operation_state\", found \"progress\""),
        (#"{"texts": {"finished": "{nmae} finished"}}"#, "test.json: 'texts.finished' uses the unknown placeholder {nmae}; it may use {name}"),
        (#"{"appliances": [{"id": "a", "cycle_push_limit": 2}]}"#, "test.json: 'appliances[0].cycle_push_limit' expects a whole number from 3 to 1000, found the number 2"),
        (#"{"appliances": [{"id": "a", "progress_steps": {"at": [50, 120]}}]}"#, "test.json: 'appliances[0].progress_steps.at[1]' expects a whole percentage from 1 to 99, found the number 120"),
        (#"{"appliances": [{"id": "a", "progress_steps": {"at": [50], "step": 5}}]}"#, "test.json: 'appliances[0].progress_steps' takes either \"at\" or step/fine_from/fine_step, not both"),
        (#"{"home_assistant": {"url": "homeassistant.local:8123"}}"#, "test.json: 'home_assistant.url' expects an http:// or https:// URL, found \"homeassistant.local:8123\""),
        (#"{"home_assistant": {"ca_file": "/nonexistent/ca.pem"}}"#, "test.json: 'home_assistant.ca_file' names /nonexistent/ca.pem, which does not exist"),
        (#"{"appliances": {"id": "a"}}"#, "test.json: 'appliances' expects a list of appliances, found an object"),
        (#"[1, 2]"#, "test.json: '(top level)' expects an object, found a list"),
        (#"{"appliances": [{"id": "a", "unload_reminder_minutes": -5}]}"#, "test.json: 'appliances[0].unload_reminder_minutes' expects a number from 0 to 1440, found the number -5"),
        (#"{"texts": {"unload_reminder": "{name} after {duration}"}}"#, "test.json: 'texts.unload_reminder' uses the unknown placeholder {duration}; it may use {minutes}, {name}, {program}"),
    ]

    @Test(arguments: errors)
    func badInputNamesTheFileTheKeyAndWhatWasExpected(json: String, message: String) {
        let error = #expect(throws: ConfigurationError.self) { try parse(json) }
        #expect(error?.kind == .invalid)
        #expect(error?.message == message)
    }

    @Test func malformedJSONIsAConfigError() {
        let error = #expect(throws: ConfigurationError.self) { try parse(#"{"poll": {"active_seconds": 10,}"#) }
        #expect(error?.kind == .invalid)
        #expect(error?.message.hasPrefix("test.json: not valid JSON") == true)
    }

    @Test func theConfigFileIsFoundInTheDocumentedOrder() throws {
        let directory = try StoreFixture()
        let explicit = directory.file("explicit.json", contents: #"{"discover": false}"#)
        let fromEnvironment = directory.file("env.json", contents: #"{"discover": true}"#)
        #expect(try ConfigurationLoader.locate(explicit: explicit, environment: ["CYCLETRACK_CONFIG": fromEnvironment]) == explicit)
        #expect(try ConfigurationLoader.locate(explicit: nil, environment: ["CYCLETRACK_CONFIG": fromEnvironment]) == fromEnvironment)
        let missing = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader.locate(explicit: directory.directory + "/nope.json", environment: [:])
        }
        #expect(missing?.kind == .missingFile)
        #expect(missing?.message.contains("nope.json does not exist") == true)
    }

    @Test func theTokenComesFromTheFileThenTheEnvironmentAndIsNeverShown() throws {
        let directory = try StoreFixture()
        let secret = "abc.def-\(UInt64.random(in: 1...UInt64.max))"
        let tokenFile = directory.file("token", contents: secret + "\n")
        var config = try parse(#"{"home_assistant": {"url": "http://127.0.0.1:8123/"}}"#)
        config.tokenFile = tokenFile
        let fromFile = try HomeAssistantAccess.resolve(config, environment: ["HA_TOKEN": "other"])
        #expect(fromFile.token == secret)
        #expect(fromFile.url == "http://127.0.0.1:8123")
        #expect(!fromFile.description.contains(secret))
        config.tokenFile = nil
        #expect(try HomeAssistantAccess.resolve(config, environment: ["HA_TOKEN": "t1", "SUPERVISOR_TOKEN": "t2"]).token == "t1")
        let supervisor = try HomeAssistantAccess.resolve(try parse("{}"), environment: ["SUPERVISOR_TOKEN": "t2"])
        #expect(supervisor.url == "http://supervisor/core")
        #expect(supervisor.tokenSource == "$SUPERVISOR_TOKEN")
        let none = #expect(throws: ConfigurationError.self) { try HomeAssistantAccess.resolve(config, environment: [:]) }
        #expect(none?.kind == .invalid)
        config.tokenFile = directory.directory + "/missing-token"
        let unreadable = #expect(throws: ConfigurationError.self) { try HomeAssistantAccess.resolve(config, environment: [:]) }
        #expect(unreadable?.message.contains("missing-token, which does not exist") == true)
    }

    @Test func everyKeyOfTheSpecExampleIsKnown() throws {
        // The loader accepts the spec's example whole; knownKeys lists the same paths.
        for key in ["home_assistant.token_file", "poll.idle_seconds", "supernotify.daily_push_limit", "texts.done_in_no_program",
                    "appliances[].fcm_high_priority", "appliances[].entities.energy", "appliances[].progress_steps"] {
            #expect(ConfigurationLoader.knownKeys.contains(key), "\(key)")
        }
    }

    static let specExample = """
        {
          "home_assistant": {"url": "http://homeassistant.local:8123", "token_file": "/run/secrets/ha_token"},
          "database": "/data/cycletrack.sqlite",
          "poll": {"active_seconds": 10, "idle_seconds": 30},
          "supernotify": {"mobile_deliveries": ["mobile_push"], "daily_push_limit": 400},
          "discover": true,
          "target": ["person.alice", "person.bob"],
          "texts": {
            "started": "{name} started", "started_program": "{name} started: {program}",
            "paused": "Paused", "action_required": "Action required", "running": "Running",
            "percent_complete": "{percent}% complete",
            "finished": "{name} finished", "aborted": "{name} aborted", "failed": "{name} failed",
            "lost": "{name} stopped reporting",
            "done_in": "{program} done in {duration}", "done_in_no_program": "Done in {duration}"
          },
          "appliances": [
            {
              "id": "dishwasher",
              "name": "Dishwasher",
              "icon": "mdi:dishwasher",
              "entities": {
                "operation_state": "sensor.dishwasher_operation_state",
                "progress": "sensor.dishwasher_program_progress",
                "finish_time": "sensor.dishwasher_program_finish_time",
                "program": "select.dishwasher_active_program",
                "door": "sensor.dishwasher_door",
                "temperature": null,
                "power": null,
                "energy": "sensor.dishwasher_energy"
              },
              "notify_start": true,
              "notify_progress": false,
              "notify_end": true,
              "progress_steps": {"step": 10, "fine_from": 90, "fine_step": 2},
              "cycle_push_limit": 18,
              "dashboard": "/dashboard-kitchen",
              "target": ["person.alice"],
              "color": "#1E88E5",
              "relevance": 0.5,
              "persistent": false,
              "fcm_high_priority": false,
              "settle_seconds": 30,
              "min_update_seconds": 15,
              "finish_jitter_seconds": 120,
              "temperature_step": 20,
              "heartbeat_minutes": 25,
              "lost_after_minutes": 360
            }
          ]
        }
        """
}

extension StoreFixture {
    /// Writes a file into the fixture's directory and returns its path.
    func file(_ name: String, contents: String) -> String {
        let path = self.path(name)
        let written = FileManager.default.createFile(atPath: path, contents: Data(contents.utf8))
        precondition(written, "the fixture could not write \(path)")
        return path
    }
}
