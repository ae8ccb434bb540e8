// swift-tools-version: 6.1
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "widgethost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "WidgetKit", targets: ["WidgetKit"]),
        .library(name: "SwiftUI", targets: ["SwiftUI"]),
        .library(name: "SDKFoundation", targets: ["SDKFoundation"]),
        .library(name: "AppIntents", targets: ["AppIntents"]),
        .library(name: "ActivityKit", targets: ["ActivityKit"]),
        .library(name: "WidgetHostRendering", targets: ["WidgetHostRendering"]),
        .library(name: "WidgetHostProtocol", targets: ["WidgetHostProtocol"]),
        .library(name: "WidgetHostCore", targets: ["WidgetHostCore"]),
        .library(name: "WidgetHostClient", targets: ["WidgetHostClient"]),
        .executable(name: "widgethostd", targets: ["widgethostd"]),
        .executable(name: "widgethost", targets: ["widgethost-front"]),
        .executable(name: "widgethost-cli", targets: ["widgethost"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", .upToNextMinor(from: "0.6.0")),
        // The dashboard: HummingbirdCore's HTTP server (no default traits: no swift-configuration),
        // and /metrics through swift-metrics with swift-prometheus as the backend.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // Pure values: JSON-RPC 2.0, NDJSON framing, the messages of both channels.
        .target(name: "WidgetHostProtocol", swiftSettings: strict),
        // SplitMix64, the one seeded generator of the harness and the randomised tests.
        .target(name: "SeededRandom", swiftSettings: strict),
        // A small blocking JSON-RPC client for the control socket (the CLI and WidgetCenter).
        .target(name: "WidgetHostClient", dependencies: ["WidgetHostProtocol"], swiftSettings: strict),
        // Foundation types Apple's SDK frameworks use and swift-corelibs-foundation lacks
        // (`LocalizedStringResource`); AppIntents and ActivityKit re-export it.
        .target(name: "SDKFoundation", swiftSettings: strict),
        // App Intents with Apple's names: AppIntent, @Parameter, AppEnum, AppEntity, EntityQuery; the
        // schema `initialize` declares and the runner behind `intent/perform` and `intent/options`.
        .target(name: "AppIntents", dependencies: ["SDKFoundation", "WidgetHostProtocol"], swiftSettings: strict),
        // Live Activities with ActivityKit's names; the app side talks to widgethostd's control socket.
        .target(
            name: "ActivityKit", dependencies: ["SDKFoundation", "WidgetHostProtocol", "WidgetHostClient"],
            swiftSettings: strict),
        // The views widgets use, with SwiftUI's names; they archive into WidgetHostProtocol's view nodes.
        // `Button(intent:)` and `Toggle(isOn:intent:)` carry App Intents (on Apple, SwiftUI's overlay for AppIntents).
        .target(name: "SwiftUI", dependencies: ["WidgetHostProtocol", "AppIntents"], swiftSettings: strict),
        // Archives to HTML+CSS at each family's size, deterministically (Foundation only, so the CLI links it).
        .target(name: "WidgetHostRendering", dependencies: ["WidgetHostProtocol"], swiftSettings: strict),
        // The SDK an extension links: Apple's names, serving the extension channel on stdin/stdout.
        .target(
            name: "WidgetKit",
            dependencies: ["WidgetHostProtocol", "WidgetHostClient", "SwiftUI", "ActivityKit", "AppIntents"],
            swiftSettings: strict),
        // The host's rules as a deterministic state machine. No clocks, files, sockets or processes.
        .target(
            name: "WidgetHostCore",
            dependencies: [
                "WidgetHostProtocol",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "OrderedCollections", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // TOML (LebJe/TOMLKit) → typed values with `file:line` errors: widgethost.toml's settings,
        // the host's rule tables, and the value formats scenario files share (durations, sizes, times of day).
        .target(
            name: "WidgetHostConfiguration",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            swiftSettings: strict
        ),
        // Extension bundles on disk: Info.plist, entitlements, scanning plugin directories, the launch environment.
        .target(
            name: "WidgetHostBundles",
            dependencies: ["WidgetHostCore", "WidgetHostProtocol"],
            swiftSettings: strict
        ),
        // The spawn that confines an extension before its own code runs (issue 17, docs/security.md):
        // a CLONE_VM | CLONE_VFORK child that sets its limits, no_new_privs, Landlock and the seccomp
        // filter with system calls only, then execs the extension; pidfd_open and the sandbox's probes.
        .target(name: "CSpawn", path: "Sources/CSpawn"),
        // Runs an extension process for everyone: spawning, the session (NDJSON, initialize,
        // request/reply matching), footprint, cgroups, libfaketime, and the synchronous face.
        .target(
            name: "WidgetHostRunner",
            dependencies: ["WidgetHostCore", "WidgetHostProtocol", "WidgetHostBundles", "CSpawn"],
            swiftSettings: strict
        ),
        // One effect interpreter for the core: the clock, extension runner, state store and
        // notice sink plugged in. The daemon and the harness both feed the core through it.
        .target(
            name: "WidgetHostDriver",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol", .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // libsystemd (sd_notify, socket activation, the journal) and timerfd/inotify, for the daemon's systemd adapter.
        .systemLibrary(name: "CSystemd", pkgConfig: "libsystemd", providers: [.apt(["libsystemd-dev"])]),
        // The live dashboard and /metrics over HTTP (HummingbirdCore on the daemon's event loop),
        // drawn by WidgetHostRendering, fed by a `DashboardSource` (the daemon's runtime, or a test's).
        .target(
            name: "WidgetHostDashboard",
            dependencies: [
                "WidgetHostProtocol", "WidgetHostRendering",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        // The imperative shell around the core: config, plugins, processes, control socket, event loop.
        .target(
            name: "WidgetHostDaemon",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol", "WidgetHostConfiguration", "WidgetHostBundles",
                "WidgetHostRunner", "WidgetHostDriver", "WidgetHostDashboard", "WidgetHostRendering", "CSystemd",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API for the statements of every step (`StoreStatements`).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "widgethostd",
            dependencies: [
                "WidgetHostDaemon", "WidgetHostConfiguration", "WidgetHostDriver",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The budget-exhaustion harness: the same core on a virtual clock (`widgethost simulate`).
        .target(
            name: "WidgetHostHarness",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol", "WidgetHostConfiguration", "WidgetHostBundles",
                "WidgetHostRunner", "WidgetHostDriver", "SeededRandom",
                .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strict
        ),
        // `widgethost doctor`: checks one extension bundle against the pitfalls, without a daemon.
        .target(
            name: "WidgetHostDoctor",
            dependencies: ["WidgetHostCore", "WidgetHostProtocol", "WidgetHostBundles", "WidgetHostRunner"],
            swiftSettings: strict
        ),
        // `widgethost`: the CLI's front. It sends `reload --kind K` / `reload --all --app A` itself
        // and execs the full CLI (the target below, installed as libexec/widgethost/widgethost-cli)
        // for everything else. Glibc and the Swift standard library only, no Foundation, and a
        // static executable: the dynamic loader's binding of Foundation, ICU and libstdc++ was two
        // thirds of the full CLI's start (issue 16); with the runtime loaded dynamically the
        // loader alone was still 2.3 M instructions of 3.0 M, static the whole run is 0.7 M.
        // lld: the default linker warns that libswiftCore.a's `dlopen` (libprespecialized, not
        // used here) needs the build's glibc at run time; lld does not, and release links with it.
        // scripts/check-dependencies.sh holds it to all that.
        .executableTarget(
            name: "widgethost-front", dependencies: ["WidgetHostReloadArguments"], path: "Sources/widgethost-front",
            swiftSettings: strict, linkerSettings: [.unsafeFlags(["-static-executable", "-use-ld=lld"])]),
        // `reload`'s simple forms and the request line they make, read the same by the front and
        // the full CLI's fast path. The standard library only: the front links it statically.
        .target(name: "WidgetHostReloadArguments", swiftSettings: strict),
        // The full CLI, every command (`widgethost-cli`; the front above runs it).
        .executableTarget(
            name: "widgethost",
            dependencies: [
                "WidgetHostProtocol", "WidgetHostClient", "WidgetHostHarness", "WidgetHostDoctor", "WidgetHostCore",
                "WidgetHostRendering", "WidgetHostReloadArguments",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict
        ),

        // Example extensions, each a bundle directory under Examples/ (see `make plugins`).
        .executableTarget(
            name: "BirthdayRemindersWidget",
            dependencies: ["WidgetKit", "SwiftUI", "BirthdayRemindersShared"],
            path: "Examples/BirthdayReminders.appex/Sources/Widget",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "birthdays",
            dependencies: [
                "WidgetKit", "BirthdayRemindersShared",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/BirthdayReminders.appex/Sources/App",
            swiftSettings: strict
        ),
        .target(
            name: "BirthdayRemindersShared",
            dependencies: ["WidgetKit"],
            path: "Examples/BirthdayReminders.appex/Sources/Shared",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "W8TrackrWidget",
            dependencies: ["WidgetKit", "W8TrackrShared"],
            path: "Examples/W8Trackr.appex/Sources/Widget",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "w8trackr",
            dependencies: [
                "WidgetKit", "W8TrackrShared", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/W8Trackr.appex/Sources/App",
            swiftSettings: strict
        ),
        .target(
            name: "W8TrackrShared",
            dependencies: ["WidgetKit", "SwiftUI", "AppIntents"],
            path: "Examples/W8Trackr.appex/Sources/Shared",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "LucidPalWidget",
            dependencies: ["WidgetKit", "LucidPalShared"],
            path: "Examples/LucidPal.appex/Sources/Widget",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "lucidpal",
            dependencies: [
                "WidgetKit", "LucidPalShared", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/LucidPal.appex/Sources/App",
            swiftSettings: strict
        ),
        .target(
            name: "LucidPalShared",
            dependencies: ["WidgetKit", "SwiftUI", "AppIntents"],
            path: "Examples/LucidPal.appex/Sources/Shared",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "WidgyWidget",
            dependencies: ["WidgetKit", "WidgyShared"],
            path: "Examples/Widgy.appex/Sources/Widget",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "widgy",
            dependencies: [
                "WidgetKit", "WidgyShared", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/Widgy.appex/Sources/App",
            swiftSettings: strict
        ),
        .target(
            name: "WidgyShared",
            dependencies: ["WidgetKit", "SwiftUI", "AppIntents"],
            path: "Examples/Widgy.appex/Sources/Shared",
            swiftSettings: strict
        ),

        // seeds/004's pizza delivery Live Activity: the `pizza` app (ActivityKit) and its attributes.
        .executableTarget(
            name: "pizza",
            dependencies: [
                "ActivityKit", "PizzaDeliveryShared", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/PizzaDelivery.appex/Sources/App",
            swiftSettings: strict
        ),
        .target(
            name: "PizzaDeliveryShared",
            dependencies: ["ActivityKit"],
            path: "Examples/PizzaDelivery.appex/Sources/Shared",
            swiftSettings: strict
        ),
        // PizzaDelivery.appex's executable: the bundle the daemon hosts (scripts/assemble-plugins.sh).
        .executableTarget(
            name: "PizzaDeliveryWidget",
            dependencies: ["WidgetKit", "PizzaDeliveryWidgets"],
            path: "Examples/PizzaDelivery.appex/Sources/Widget",
            swiftSettings: strict
        ),
        .target(
            name: "PizzaDeliveryWidgets",
            dependencies: ["WidgetKit", "SwiftUI", "ActivityKit", "PizzaDeliveryShared"],
            path: "Examples/PizzaDelivery.appex/Sources/Widgets",
            swiftSettings: strict
        ),

        // seeds/004's App Intents snippets, unchanged (WidgetKitTests serves them). They declare
        // `static var title: LocalizedStringResource = …`, which the Swift 6 language mode refuses as
        // global mutable state, so this fixture alone builds in the Swift 5 mode, as the seed's app would.
        .target(
            name: "AxiomIntentsFixture", dependencies: ["WidgetKit", "SwiftUI", "AppIntents"],
            path: "Tests/Fixtures/AxiomIntents", swiftSettings: [.swiftLanguageMode(.v5)]
        ),

        // An extension whose providers use Swift concurrency every way app code does and say which
        // thread ran each piece; WidgetHostRunnerTests' GlobalExecutorTests run it in the sandbox.
        .executableTarget(
            name: "ConcurrencyFixtureWidget", dependencies: ["WidgetKit"],
            path: "Tests/Fixtures/ConcurrencyExtension", swiftSettings: strict
        ),

        // Benchmarks (`make bench`, release build; not part of `make test`). See docs/benchmarks.md.
        .executableTarget(
            name: "widgethost-bench",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol", "WidgetHostClient", "WidgetHostHarness", "WidgetHostBundles",
                "WidgetHostRunner", "SeededRandom", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/Sources/Bench",
            swiftSettings: strict
        ),
        // The extension the benchmarks host, written with the WidgetKit SDK.
        .executableTarget(
            name: "widgethost-bench-extension",
            dependencies: ["WidgetKit"],
            path: "Benchmarks/Sources/BenchExtension",
            swiftSettings: strict
        ),
        // Rendering a systemLarge archive to HTML (target: under 1 ms), archiving and decoding it.
        .executableTarget(
            name: "widgethost-bench-render",
            dependencies: ["WidgetHostRendering", "WidgetHostProtocol", "WidgetKit", "SwiftUI"],
            path: "Benchmarks/Sources/BenchRender",
            swiftSettings: strict
        ),
        // The control-throughput floor: a minimal Unix-socket line echo.
        .executableTarget(
            name: "widgethost-bench-echo",
            path: "Benchmarks/Sources/BenchEcho",
            swiftSettings: strict
        ),

        .testTarget(
            name: "WidgetHostProtocolTests",
            dependencies: ["WidgetHostProtocol", "SeededRandom"],
            swiftSettings: strict
        ),
        // The SwiftUI subset: every view and modifier archived, the seeds' view code compiled as fixtures.
        .testTarget(
            name: "SwiftUITests",
            dependencies: ["SwiftUI", "WidgetKit", "WidgetHostProtocol", "AppIntents"],
            exclude: ["Seeds/README.md"],
            swiftSettings: strict
        ),
        // Archive → HTML golden files for every view and modifier, escaping, device sizes, PNG through Chromium.
        .testTarget(
            name: "WidgetHostRenderingTests",
            dependencies: ["WidgetHostRendering", "SwiftUI", "WidgetKit", "WidgetHostProtocol"],
            exclude: ["Goldens"],
            swiftSettings: strict
        ),
        // ActivityKit: the seed's Live Activity code compiles; its JSON and errors.
        .testTarget(
            name: "ActivityKitTests",
            dependencies: ["ActivityKit", "WidgetHostProtocol"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetKitTests",
            dependencies: [
                "WidgetKit", "SwiftUI", "WidgetHostProtocol", "ActivityKit", "AppIntents", "PizzaDeliveryShared",
                "PizzaDeliveryWidgets", "AxiomIntentsFixture", "SeededRandom",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostCoreTests",
            dependencies: [
                "WidgetHostCore", "WidgetHostProtocol",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostConfigurationTests",
            dependencies: ["WidgetHostConfiguration", "WidgetHostCore"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostBundlesTests",
            dependencies: ["WidgetHostBundles", "WidgetHostProtocol"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostDriverTests",
            dependencies: ["WidgetHostDriver", "WidgetHostCore", "WidgetHostProtocol"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostRunnerTests",
            dependencies: [
                "WidgetHostRunner", "WidgetHostDaemon", "CSpawn", "WidgetHostCore", "WidgetHostProtocol", "WidgetHostBundles",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostDaemonTests",
            dependencies: [
                "WidgetHostDaemon", "WidgetHostConfiguration", "WidgetHostCore", "WidgetHostProtocol", "WidgetHostBundles",
                "WidgetHostRunner", "WidgetHostDriver", "CSystemd", "SeededRandom",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The dashboard's server for real on loopback, in front of a fake host.
        .testTarget(
            name: "WidgetHostDashboardTests",
            dependencies: [
                "WidgetHostDashboard", "WidgetHostProtocol",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostHarnessTests",
            dependencies: ["WidgetHostHarness", "WidgetHostConfiguration", "WidgetHostCore", "WidgetHostProtocol"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "WidgetHostDoctorTests",
            dependencies: ["WidgetHostDoctor", "WidgetHostProtocol", "WidgetHostRunner", "WidgetHostCore", "WidgetHostBundles"],
            swiftSettings: strict
        ),
        // The example extensions' providers and app-side writers.
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "WidgetKit", "WidgetHostProtocol", "BirthdayRemindersShared", "BirthdayRemindersWidget",
                "W8TrackrShared", "LucidPalShared", "WidgyShared",
            ],
            swiftSettings: strict
        ),
        // The reload arguments' forms and their request line, byte for byte the encoder's.
        .testTarget(
            name: "WidgetHostReloadArgumentsTests",
            dependencies: [
                "WidgetHostReloadArguments", "WidgetHostProtocol",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strict
        ),
        // Real daemon, real extension processes, real CLI: run against the built products.
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["WidgetHostProtocol", "WidgetHostClient", "SeededRandom"],
            swiftSettings: strict
        ),
    ]
)
