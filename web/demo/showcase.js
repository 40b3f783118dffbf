// Styled markers around Paris, one for each marker feature: coloured pins with
// glyphs (V1), an image icon with transparent padding (M3), flat and rotated markers (M6, M7),
// custom views drawn by an element and by a callback (M4), appear animations (M9), collision
// behaviours and priorities (V4), long snippets (I5), a custom info window (I7), a popover
// (V2), and the Louvre as a building with floors, a marker on each of three (G4: zoom in on it
// for the floor picker). Returns the function that takes them all away.

/** @typedef {import('../src/map/cairn-map.js').CairnMap} CairnMap */
/** @typedef {import('../src/map/marker.js').Marker} Marker */

/**
 * @param {CairnMap} map
 * @returns {() => void}
 */
export function addShowcase(map) {
  /** @type {Marker[]} */
  const markers = [];
  const add = (/** @type {import('../src/map/marker.js').MapMarkerOptions} */ o) => {
    const m = map.addMarker(o);
    markers.push(m);
    return m;
  };
  const at = (/** @type {number} */ lat, /** @type {number} */ lng) => ({ latitude: lat, longitude: lng });

  add({
    position: at(48.8584, 2.2945), title: 'Eiffel Tower',
    snippet: 'Wrought-iron lattice tower on the Champ de Mars, completed in 1889 as the entrance arch of the World\'s ' +
      'Fair. Its long description wraps onto several lines and is cut with an ellipsis when it runs past the window\'s last line.',
    appearAnimation: 'pop',
  });
  add({ position: at(48.8606, 2.3376), title: 'Louvre', snippet: 'Museum', pin: { background: '#fbbc04', borderColor: '#c5960c', glyph: 'L', glyphColor: '#3c4043' } });
  add({ position: at(48.853, 2.3499), title: 'Notre-Dame', snippet: '<b>Never</b> shown as HTML', pin: { background: '#34a853', borderColor: '#1e8e3e', glyphColor: '#0d652d' }, appearAnimation: 'fadeIn' });
  add({ position: at(48.8867, 2.3431), title: 'Sacré-Cœur', snippet: 'Basilica on Montmartre', pin: { background: '#a142f4', borderColor: '#7627bb', glyph: '★', glyphColor: '#fff', scale: 1.3 } });

  // An image icon with 6 px of transparent shadow padding that does not count for its anchor (M3).
  const star = document.createElement('canvas');
  star.width = 44;
  star.height = 44;
  const s = /** @type {CanvasRenderingContext2D} */ (star.getContext('2d'));
  s.shadowColor = 'rgba(0,0,0,.4)';
  s.shadowBlur = 4;
  s.fillStyle = '#ea4335';
  s.beginPath();
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 7 : 16;
    const a = Math.PI / 5 * i - Math.PI / 2;
    s.lineTo(22 + r * Math.cos(a), 22 + r * Math.sin(a));
  }
  s.fill();
  const starIcon = map.icon(star, { anchor: { x: 0.5, y: 0.5 }, insets: { top: 6, left: 6, bottom: 6, right: 6 } });
  add({ position: at(48.8738, 2.295), title: 'Arc de Triomphe', snippet: 'An image icon', icon: starIcon, groundAnchor: { x: 0.5, y: 0.5 } });

  // Flat and rotated markers: an arrow lying on the ground, pointing east (M6, M7).
  const arrow = document.createElement('canvas');
  arrow.width = 40;
  arrow.height = 40;
  const a = /** @type {CanvasRenderingContext2D} */ (arrow.getContext('2d'));
  a.fillStyle = '#1a73e8';
  a.beginPath();
  a.moveTo(20, 2); a.lineTo(34, 36); a.lineTo(20, 28); a.lineTo(6, 36);
  a.closePath();
  a.fill();
  const arrowIcon = map.icon(arrow, { anchor: { x: 0.5, y: 0.5 } });
  add({ position: at(48.8462, 2.3372), title: 'Flat arrow', snippet: 'flat, rotation 90°', icon: arrowIcon, flat: true, rotation: 90, groundAnchor: { x: 0.5, y: 0.5 } });
  add({ position: at(48.8412, 2.3202), title: 'Rotated arrow', snippet: 'rotation 45°, faces the screen', icon: arrowIcon, rotation: 45, groundAnchor: { x: 0.5, y: 0.5 }, opacity: 0.7 });

  // A custom view from an element (M4), rasterised once it stops tracking changes.
  const label = document.createElement('div');
  label.style.cssText = 'font:bold 12px sans-serif;color:#fff;background:#d93025;padding:4px 8px;border-radius:12px;white-space:nowrap;';
  label.textContent = 'Café de Flore';
  add({ position: at(48.854, 2.3326), title: 'Café de Flore', snippet: 'A view marker from an HTML element', view: label, tracksViewChanges: false });
  // A view drawn by a callback while it tracks changes: a pulsing dot.
  add({
    position: at(48.8656, 2.3212), title: 'Place de la Concorde', snippet: 'A view drawn every frame',
    view: (ctx, { width, height, time }) => {
      const r = 6 + 4 * (0.5 + 0.5 * Math.sin(time * 4));
      ctx.fillStyle = 'rgba(26,115,232,.25)';
      ctx.beginPath(); ctx.arc(width / 2, height / 2, r + 4, 0, Math.PI * 2); ctx.fill();
      ctx.fillStyle = '#1a73e8';
      ctx.beginPath(); ctx.arc(width / 2, height / 2, 6, 0, Math.PI * 2); ctx.fill();
    },
    viewSize: { width: 32, height: 32 }, groundAnchor: { x: 0.5, y: 0.5 },
  });

  // Collisions (V4), in Lyon: a required marker that hides the optional ones it overlaps, and
  // a row of optional markers where the higher priority wins when they overlap.
  add({ position: at(45.764, 4.8357), title: 'Lyon', snippet: 'requiredAndHidesOptional', collisionBehavior: 'requiredAndHidesOptional',
    pin: { background: '#d93025', glyph: 'R', glyphColor: '#fff' }, zIndex: 1 });
  for (let i = 0; i < 12; i++) {
    add({
      position: at(45.764 + 0.01 * Math.sin(i), 4.8357 + 0.02 * (i - 6) / 6), title: `Optional ${i}`, snippet: `priority ${i % 4}`,
      collisionBehavior: 'optionalAndHidesLowerPriority', collisionPriority: i % 4,
      pin: { background: ['#9aa0a6', '#4285f4', '#0f9d58', '#f4b400'][i % 4], glyph: String(i % 4), glyphColor: '#fff', scale: 0.8 },
    });
  }

  // A custom info window (I7) for markers that ask for one through userData.
  add({ position: at(48.8635, 2.3135), title: 'Petit Palais', snippet: 'custom info window', userData: { customWindow: true },
    pin: { background: '#202124', glyph: 'i', glyphColor: '#fff' } });
  map.setInfoWindowHooks({
    window: (m) => {
      const data = /** @type {{customWindow?: boolean} | undefined} */ (m.userData);
      if (!data?.customWindow) return null;
      const el = document.createElement('div');
      el.style.cssText = 'background:#202124;color:#fff;padding:10px 12px;border-radius:10px;font:13px sans-serif;max-width:200px;';
      const title = document.createElement('b');
      title.textContent = m.title;   // text, never HTML (I9)
      const body = document.createElement('div');
      body.textContent = 'A window the app built itself; taps on it still reach the map.';
      el.append(title, body);
      return el;
    },
  });

  // A popover (V2) on the Opéra: opens on a tap of its marker, closes on a tap elsewhere.
  const opera = add({ position: at(48.872, 2.3316), title: 'Opéra Garnier', pin: { background: '#e37400', glyph: '♪', glyphColor: '#fff' } });
  const box = document.createElement('div');
  box.className = 'popover';
  box.innerHTML = '<b>Opéra Garnier</b><div>A popover: live page content anchored to its marker.</div><button type="button">Close</button>';
  const popover = map.addPopover(opera, box, { autoClose: true, autoPan: true });
  /** @type {HTMLButtonElement} */ (box.querySelector('button')).addEventListener('click', () => popover.close());
  const stop = map.on('markerTap', (m) => {
    if (m !== opera) return false;
    popover.open();
    return true;    // consumed: no info window, no centring
  });

  // The Louvre's floors: from zoom 16 over the museum the picker offers them; a marker shows
  // on the level shown only.
  const louvre = map.addIndoorBuilding({
    footprint: [at(48.8597, 2.3305), at(48.8597, 2.3397), at(48.8616, 2.3397), at(48.8616, 2.3305)],
    levels: [{ name: 'Level 2', shortName: '2' }, { name: 'Level 1', shortName: '1' }, { name: 'Level 0', shortName: '0' },
      { name: 'Level -1', shortName: '-1' }, { name: 'Level -2', shortName: '-2' }],
    defaultLevel: 2,
  });
  const floor = (/** @type {number} */ level) => ({ building: louvre.id, level });
  add({ position: at(48.8601, 2.3322), title: 'Mona Lisa', snippet: 'Level 1, Denon wing', indoorLevel: floor(1) });
  add({ position: at(48.8606, 2.3318), title: 'Venus de Milo', snippet: 'Level 0, Sully wing', indoorLevel: floor(2) });
  add({ position: at(48.8611, 2.3322), title: 'Medieval Louvre', snippet: 'Level -1, the moat of the old fortress', indoorLevel: floor(3) });

  return () => {
    stop();
    popover.remove();
    louvre.remove();
    map.setInfoWindowHooks({});
    for (const m of markers) if (m.onMap) m.remove();
  };
}
