// swift-tools-version:5.9
// Plain manifest: the Embedded/wasm flags live in build.sh, so `swift build` and `swift test`
// compile the very same sources natively.
import PackageDescription

let package = Package(
    name: "Cairn",
    products: [
        .library(name: "Cairn", targets: ["Cairn"]),
    ],
    targets: [
        .target(
            name: "Cairn",
            swiftSettings: [.enableExperimentalFeature("Extern")],
            linkerSettings: [.linkedLibrary("m")]
        ),
        .target(
            name: "CairnWasm",
            dependencies: ["Cairn"],
            swiftSettings: [.enableExperimentalFeature("Extern")]
        ),
        .executableTarget(
            name: "CairnBench",
            dependencies: ["Cairn"],
            path: "Sources/CairnBench"
        ),
        .testTarget(name: "CairnTests", dependencies: ["Cairn"]),
        .testTarget(name: "CairnWasmTests", dependencies: ["CairnWasm", "Cairn"]),
    ]
)
