import Foundation
import XCTest
@testable import Cairn

/// The supercluster reference fixtures in Tests/Fixtures (see their README), and the
/// membership fingerprint they are checked with.
enum Fixtures {
    /// Tests/Fixtures, found from this file's place in the repository.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The fixtures folder; a missing one is a failure, never a skip.
    static func require() throws -> URL {
        let readme = directory.appendingPathComponent("README.md")
        guard FileManager.default.fileExists(atPath: readme.path) else {
            struct Missing: Error, CustomStringConvertible {
                var path: String
                var description: String { "reference fixtures not found at \(path)" }
            }
            throw Missing(path: directory.path)
        }
        return directory
    }

    /// Longitude/latitude pairs of an input file (GeoJSON FeatureCollection or lng,lat CSV).
    static func points(_ name: String) throws -> [Double] {
        let url = try require().appendingPathComponent(name)
        if name.hasSuffix(".csv") {
            let text = try String(contentsOf: url, encoding: .utf8)
            var out: [Double] = []
            for line in text.split(separator: "\n").dropFirst() {
                let parts = line.split(separator: ",")
                out.append(Double(parts[0])!)
                out.append(Double(parts[1])!)
            }
            return out
        }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var out: [Double] = []
        for feature in json["features"] as! [[String: Any]] {
            // supercluster skips features without geometry; the fixture's only one comes last,
            // so input indices stay the same.
            guard let geometry = feature["geometry"] as? [String: Any] else { continue }
            let coords = geometry["coordinates"] as! [Double]
            out.append(coords[0])
            out.append(coords[1])
        }
        return out
    }

    struct Zoom {
        var z: Int
        var items: Int
        var clusters: Int
        var sha: String
        var detail: [(leaves: [Int], lng: Double, lat: Double)]?
    }

    struct Run {
        var input: String
        var options: ClusterOptions
        var zooms: [Zoom]
    }

    static func runs(_ name: String) throws -> [Run] {
        let url = try require().appendingPathComponent(name)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
        return json.map { run in
            let o = run["options"] as! [String: Any]
            let options = ClusterOptions(radius: (o["radius"] as! NSNumber).doubleValue,
                                         extent: (o["extent"] as! NSNumber).doubleValue,
                                         minZoom: o["minZoom"] as! Int, maxZoom: o["maxZoom"] as! Int,
                                         minPoints: o["minPoints"] as! Int)
            let zooms = (run["zooms"] as! [[String: Any]]).map { z -> Zoom in
                let detail = (z["items_detail"] as? [[Any]])?.map { d in
                    ((d[0] as! [Int]), (d[1] as! NSNumber).doubleValue, (d[2] as! NSNumber).doubleValue)
                }
                return Zoom(z: z["z"] as! Int, items: z["items"] as! Int, clusters: z["clusters"] as! Int,
                            sha: z["membershipSha256"] as! String, detail: detail)
            }
            return Run(input: run["input"] as! String, options: options, zooms: zooms)
        }
    }

    /// Per item of the whole world at `zoom`: its leaf indices ascending, the lists sorted by
    /// their first index (the README's canonical order), with the item's position.
    static func membership(_ index: HierarchicalClusterIndex, zoom: Int) throws -> [(leaves: [Int], feature: ClusterFeature)] {
        let items = try index.clusters(west: -180, south: -90, east: 180, north: 90, zoom: Double(zoom))
        var out: [(leaves: [Int], feature: ClusterFeature)] = []
        for item in items {
            let leaves = item.isCluster
                ? try index.leaves(of: item.id, limit: Int.max).map { Int($0.id) }.sorted()
                : [Int(item.id)]
            out.append((leaves, item))
        }
        return out.sorted { $0.leaves[0] < $1.leaves[0] }
    }

    static func fingerprint(_ membership: [(leaves: [Int], feature: ClusterFeature)]) -> String {
        SHA256.hex(membership.map { $0.leaves.map(String.init).joined(separator: ",") }.joined(separator: "\n"))
    }

    static func makeIndex(_ points: [Double], _ options: ClusterOptions) throws -> HierarchicalClusterIndex {
        let index = try HierarchicalClusterIndex(options: options)
        try points.withUnsafeBufferPointer { try index.add(lngLat: $0) }
        index.build()
        return index
    }
}
