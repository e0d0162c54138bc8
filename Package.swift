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
                .embedInCode("0005_placeholder.sql"),
                .embedInCode("0006_placeholder.sql"),
                .embedInCode("0007_api_settings_and_instance.sql"),
            ]
        ),
        // The history in SQLite: connection, migrator, records, queries.
        .target(
            name: "CycleHistory",
            dependencies: ["CycleCore", "CSQLite", "Migrations"]
        ),
        // Home Assistant over libcurl: HTTP, the REST client, templates, discovery, the WebSocket.
        .target(
            name: "HomeAssistantAPI",
            dependencies: ["CycleCore", "CCurl"]
        ),
        // The service: configuration, the runner, the push sender, the recorder.
        .target(
            name: "CycleService",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI"]
        ),
        // The history page: HTML and SVG from the history, served by libmicrohttpd.
        .target(
            name: "HistoryWeb",
            dependencies: ["CycleCore", "CycleHistory", "CMicroHTTPD"]
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
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CycleService", "HistoryWeb", "ServiceAPI"]
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
        .testTarget(
            name: "CycleTrackTests",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CycleService", "CycleCommands", "HistoryWeb", "ServiceAPI", "HTTPStandIn"]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["CycleCore", "CycleHistory", "HomeAssistantAPI", "CycleService", "CycleCommands", "HistoryWeb", "HTTPStandIn"],
            // A Home Assistant configuration and custom components, copied for each test.
            exclude: ["Fixtures"]
        ),
    ]
)
