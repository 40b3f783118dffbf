// A small app written for Leaflet.markercluster, with its common API only: it runs as it is on
// Leaflet.markercluster and on Cairn's layer (markercluster-app.html loads one or the other as
// L.markerClusterGroup). It reports what happened in window.app.log.
/* global L */
(function () {
  'use strict';
  var map = L.map('map').setView([46.6, 2.4], 5);

  // An offline background: a grid of tiles with their coordinates.
  var Grid = L.GridLayer.extend({
    createTile: function (c) {
      var tile = document.createElement('canvas');
      tile.width = tile.height = 256;
      var ctx = tile.getContext('2d');
      ctx.fillStyle = '#dfe8d8';
      ctx.fillRect(0, 0, 256, 256);
      ctx.strokeStyle = '#b8c4b0';
      ctx.strokeRect(0.5, 0.5, 255, 255);
      ctx.fillStyle = '#8a9684';
      ctx.font = '11px sans-serif';
      ctx.fillText(c.z + '/' + c.x + '/' + c.y, 6, 16);
      return tile;
    },
  });
  new Grid({ maxZoom: 18 }).addTo(map);

  var log = [];
  var group = L.markerClusterGroup({
    maxClusterRadius: 50,
    disableClusteringAtZoom: 16,
    spiderfyOnMaxZoom: true,
    zoomToBoundsOnClick: true,
    iconCreateFunction: function (cluster) {
      var n = cluster.getChildCount();
      var size = n < 10 ? 'small' : n < 100 ? 'medium' : 'large';
      return L.divIcon({ html: '<div><span>' + n + '</span></div>', className: 'marker-cluster marker-cluster-' + size,
        iconSize: L.point(40, 40) });
    },
  });

  // 2,000 places from a seeded generator, around French cities.
  var seed = 7;
  function random() { seed = (seed * 16807) % 2147483647; return (seed - 1) / 2147483646; }
  var centres = [[48.86, 2.35], [45.76, 4.84], [43.30, 5.37], [44.84, -0.58], [50.63, 3.06], [47.22, -1.55]];
  var markers = [];
  for (var i = 0; i < 2000; i++) {
    var c = centres[i % centres.length];
    var spread = 0.02 + random() * 0.6;
    var m = L.marker([c[0] + (random() - 0.5) * spread, c[1] + (random() - 0.5) * spread * 1.4], { title: 'Place ' + i });
    m.bindPopup('<b class="place">Place ' + i + '</b>');
    markers.push(m);
  }
  group.addLayers(markers);
  map.addLayer(group);

  group.on('clusterclick', function (e) { log.push('clusterclick ' + e.layer.getChildCount()); });
  group.on('click', function (e) { log.push('click ' + e.layer.options.title); });
  group.on('animationend', function () { log.push('animationend'); });

  // One removed, one added after the start: the counts say so.
  group.removeLayer(markers[0]);
  var extra = L.marker([48.8584, 2.2945], { title: 'Eiffel Tower' }).bindPopup('<b class="place">Eiffel Tower</b>');
  group.addLayer(extra);

  window.app = {
    map: map, group: group, markers: markers, extra: extra, log: log,
    count: function () { return group.getLayers().length; },
    show: function (marker, done) { group.zoomToShowLayer(marker, function () { marker.openPopup(); log.push('shown ' + marker.options.title); if (done) done(); }); },
  };
})();
