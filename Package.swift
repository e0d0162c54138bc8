// swift-tools-version:6.0
import PackageDescription

// cycletrack depends on nothing but the Swift toolchain and three Debian C libraries
// (libsqlite3-dev, libcurl4-openssl-dev, libmicrohttpd-dev), reached through
// system-library targets.
let package = Package(
    name: "cycletrack",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "cycletrack", targets: ["cycletrack"]),
        .executable(name: "cycletrack-bench", targets: ["cycletrack-bench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // GNU libmicrohttpd, the history page's HTTP server: it faces a network.
        // glibc's <malloc.h> (part of libc6-dev, with the toolchain): mallopt.
        .systemLibrary(name: "CMalloc"),
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        // The domain, pure: no I/O, no clock.
        .target(name: "CycleCore"),
        // The ordered SQL migrations, embedded into the binary.
        .target(
            name: "Migrations",
            path: "Migrations",
            resources: [
                .embedInCode("0001_initial.sql"),
                .embedInCode("0002_superseded_pushes.sql"),
                .embedInCode("0003_shown_finish_and_reminders.sql"),
                .embedInCode("0004_appliance_profile.sql"),
                .embedInCode("0005_holds_replays_and_cost.sql"),
                .embedInCode("0006_api_settings_and_instance.sql"),
                .embedInCode("0007_units_and_rests.sql"),
                .embedInCode("0008_household_settings.sql"),
                .embedInCode("0009_held_and_dropped_pushes.sql"),
                .embedInCode("0010_integration.sql"),
            ]
        ),
        // The history in SQLite: connection, migrator, records, queries.
        .target(
            name: "CycleHistory",
            dependencies: ["CycleCore", "LocalTime", "CSQLite", "Migrations"]
        ),
        // Local time for tables and the page: the C library's zone (tzset, localtime_r)
        // behind one lock, and how times and durations are written.
        .target(name: "LocalTime", dependencies: ["CycleCore"]),
        // Home Assistant over libcurl, by folder: HTTP/ (libcurl transfers), WebSocket/ (an
        // RFC 6455 client that knows nothing of HA), HomeAssistant/ (the REST client,
        // templates, discovery, and HA's WebSocket session over WebSocket/).
        .target(
            name: "HomeAssistantAPI",
            dependencies: ["CycleCore", "CCurl"]
        ),
        // The service: configuration, the runner, the push sender, the recorder.
        .target(
            name: "CycleService",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CMalloc"]
        ),
        // The history page: HTML and SVG from the history, served by libmicrohttpd.
        .target(
            name: "HistoryWeb",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "CMicroHTTPD"]
        ),
        // The local API for the Home Assistant integration (docs/API.md), served beside the
        // history page: JSON and the event stream from the service's snapshots, commands to it.
        .target(
            name: "ServiceAPI",
            dependencies: ["CycleCore", "CycleService", "HomeAssistantAPI", "HistoryWeb"]
        ),
        // The command line: one type per command, help texts, exit codes, the demo.
        .target(
            name: "CycleCommands",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "HomeAssistantAPI", "CycleService", "HistoryWeb", "ServiceAPI"]
        ),
        // A tiny HTTP/1.1 server on 127.0.0.1 for tests and the benchmark: scripted
        // answers and faults standing in for Home Assistant. Never part of the service.
        .target(name: "HTTPStandIn"),
        .executableTarget(name: "cycletrack", dependencies: ["CycleCommands"]),
        .executableTarget(
            name: "cycletrack-bench",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CycleService", "CycleCommands", "HTTPStandIn"]
        ),
        .testTarget(name: "CycleCoreTests", dependencies: ["CycleCore"], exclude: ["Fixtures"]),
        // Fixtures several test targets share (temporary history files, a small known
        // history); public API only, so it builds in release too. Never part of the service.
        .target(
            name: "TestSupport",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "CycleService", "HTTPStandIn"],
            path: "Tests/TestSupport"
        ),
        // One test target per source target.
        .testTarget(name: "CycleHistoryTests", dependencies: ["CycleCore", "CycleHistory", "Migrations", "TestSupport"]),
        .testTarget(name: "LocalTimeTests", dependencies: ["LocalTime"]),
        // The stand-ins alone, over loopback with a plain socket: no HTTP client of the service's.
        .testTarget(name: "HTTPStandInTests", dependencies: ["HTTPStandIn"]),
        .testTarget(
            name: "HomeAssistantAPITests",
            dependencies: ["HomeAssistantAPI", "HTTPStandIn"],
            // The corpus of real devices' entities (Fixtures/RealDevices), read by path.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "CycleServiceTests",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CycleService", "HTTPStandIn", "TestSupport"],
            // The subscribe_entities exchange recorded from a real Home Assistant, read by path.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "HistoryWebTests",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "CycleService", "HistoryWeb", "HomeAssistantAPI", "TestSupport"]
        ),
        .testTarget(
            name: "CycleCommandsTests",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "CycleService", "CycleCommands", "HistoryWeb", "ServiceAPI", "TestSupport"]
        ),
        .testTarget(
            name: "ServiceAPITests",
            dependencies: ["ServiceAPI", "CycleCommands", "CycleService", "CycleCore", "CycleHistory", "HistoryWeb", "HomeAssistantAPI", "HTTPStandIn", "TestSupport"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CycleCore", "CycleHistory", "LocalTime", "HomeAssistantAPI", "CycleService", "CycleCommands", "HistoryWeb", "HTTPStandIn"],
            // A Home Assistant configuration and custom components, copied for each test.
            exclude: ["Fixtures"]
        ),
    ]
)
