// The default info window (features I1, I5, I9): a white bubble centred above the marker with a
// tail pointing down at it, the title in bold on one line and the snippet below, wrapped at
// words onto at most four lines and cut with an ellipsis. Text is only ever measured and
// drawn with fillText, so a title of '<b>x</b>' shows those characters (I9).
//
// The layout is pure: it takes a measuring function, so it runs in Node with a fake one and
// in the browser with `canvasMeasure`. The map tells the engine the laid-out size (the engine
// places the window and hit-tests it as the box x - w/2 … x + w/2, y - h … y, tail tip at (x, y)).

/**
 * @callback Measure  the width in CSS pixels of text in the title font (bold) or the snippet font
 * @param {string} text
 * @param {boolean} bold
 * @returns {number}
 */

/**
 * @typedef {object} InfoWindowLine
 * @property {string} text
 * @property {boolean} bold  the title
 * @property {number} y  the line's vertical middle, from the top of the bubble
 */

/**
 * @typedef {object} InfoWindowLayout
 * @property {number} width   the bubble's width
 * @property {number} height  the bubble's height and the tail below it
 * @property {number} padding  between the bubble's edge and the text
 * @property {InfoWindowLine[]} lines  title first, when there is one
 */

/**
 * @typedef {object} InfoWindowOptions
 * @property {number} [maxWidth=240]  of the text
 * @property {number} [padding=12]
 * @property {number} [maxLines=4]  of the snippet
 */

/** How the default window looks, in CSS pixels. */
export const INFO_WINDOW = Object.freeze({
  maxWidth: 240,
  padding: 12,
  maxLines: 4,
  tail: 8,
  tailHalfWidth: 8,
  radius: 8,
  titleFont: 'bold 14px Roboto, Arial, sans-serif',
  snippetFont: '13px Roboto, Arial, sans-serif',
  titleLineHeight: 20,
  snippetLineHeight: 18,
  gap: 2,
  titleColor: '#202124',
  snippetColor: '#5f6368',
});

/** What ends cut text. */
export const ELLIPSIS = '\u2026';

/**
 * Lays out the default window's text.
 * @param {Measure} measure
 * @param {string} title  one line, cut with an ellipsis when too wide; runs of white space become one space
 * @param {string} snippet  wrapped at spaces (and line breaks), long words broken, cut after `maxLines`
 * @param {InfoWindowOptions} [options]
 * @returns {InfoWindowLayout}
 */
export function layoutInfoWindow(measure, title, snippet, options = {}) {
  const maxWidth = options.maxWidth ?? INFO_WINDOW.maxWidth;
  const padding = options.padding ?? INFO_WINDOW.padding;
  const maxLines = options.maxLines ?? INFO_WINDOW.maxLines;
  const L = INFO_WINDOW;

  /** @type {InfoWindowLine[]} */
  const lines = [];
  let textWidth = 0;
  let y = padding;
  const titleText = String(title ?? '').replace(/\s+/g, ' ').trim();
  if (titleText !== '') {
    const text = fitLine(measure, titleText, true, maxWidth);
    textWidth = Math.max(textWidth, measure(text, true));
    lines.push({ text, bold: true, y: y + L.titleLineHeight / 2 });
    y += L.titleLineHeight;
  }
  const wrapped = wrapText(measure, String(snippet ?? ''), false, maxWidth, maxLines);
  if (wrapped.length > 0 && lines.length > 0) y += L.gap;
  for (const text of wrapped) {
    textWidth = Math.max(textWidth, measure(text, false));
    lines.push({ text, bold: false, y: y + L.snippetLineHeight / 2 });
    y += L.snippetLineHeight;
  }
  // Never narrower than the tail and the two rounded corners beside it.
  const width = Math.max(Math.ceil(Math.min(textWidth, maxWidth)) + 2 * padding, 2 * (L.radius + L.tailHalfWidth));
  return { width, height: y + padding + L.tail, padding, lines };
}

/**
 * Wraps text into lines no wider than maxWidth: breaks at white space and at line breaks
 * (kept), breaks words wider than a line between characters, and when more text remains after
 * maxLines ends the last line with an ellipsis.
 * @param {Measure} measure
 * @param {string} text
 * @param {boolean} bold
 * @param {number} maxWidth
 * @param {number} maxLines  at least 1
 * @returns {string[]}
 */
export function wrapText(measure, text, bold, maxWidth, maxLines) {
  const limit = Math.max(1, Math.floor(maxLines));
  /** @type {string[]} */
  const lines = [];
  // One line more than allowed is enough to know the text does not fit.
  const full = () => lines.length > limit;
  const paragraphs = text.trim().split(/\r\n|\r|\n/);
  if (paragraphs.length === 1 && paragraphs[0] === '') return lines;
  for (const paragraph of paragraphs) {
    let line = '';
    for (let word of paragraph.split(/\s+/)) {
      if (word === '') continue;
      const candidate = line === '' ? word : line + ' ' + word;
      if (measure(candidate, bold) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line !== '') {
        lines.push(line);
        line = '';
        if (full()) break;
      }
      while (measure(word, bold) > maxWidth) {
        const chars = Array.from(word);
        const n = Math.max(1, longestFit(measure, chars, bold, maxWidth, ''));
        lines.push(chars.slice(0, n).join(''));
        word = chars.slice(n).join('');
        if (full()) break;
      }
      if (full()) break;
      line = word;
    }
    if (full()) break;
    // A blank line between paragraphs stays; a word too wide for even one character leaves nothing over.
    if (line !== '' || !/\S/.test(paragraph)) lines.push(line);
    if (full()) break;
  }
  if (lines.length <= limit) return lines;
  lines.length = limit;
  lines[limit - 1] = withEllipsis(measure, lines[limit - 1], bold, maxWidth);
  return lines;
}

/**
 * The text if it fits, else as much of it as fits followed by an ellipsis.
 * @param {Measure} measure
 * @param {string} text
 * @param {boolean} bold
 * @param {number} maxWidth
 * @returns {string}
 */
export function fitLine(measure, text, bold, maxWidth) {
  return measure(text, bold) <= maxWidth ? text : withEllipsis(measure, text, bold, maxWidth);
}

/**
 * As much of the text as fits with an ellipsis after it (the ellipsis alone when nothing does).
 * @param {Measure} measure
 * @param {string} text
 * @param {boolean} bold
 * @param {number} maxWidth
 * @returns {string}
 */
function withEllipsis(measure, text, bold, maxWidth) {
  const chars = Array.from(text.trimEnd());
  const n = longestFit(measure, chars, bold, maxWidth, ELLIPSIS);
  return chars.slice(0, n).join('').trimEnd() + ELLIPSIS;
}

/**
 * The most leading characters that fit in maxWidth with the suffix after them (0 if none do).
 * Widths grow with the characters taken, so a binary search finds it in log(n) measures.
 * @param {Measure} measure
 * @param {string[]} chars  code points, so a surrogate pair is never split
 * @param {boolean} bold
 * @param {number} maxWidth
 * @param {string} suffix
 * @returns {number}
 */
function longestFit(measure, chars, bold, maxWidth, suffix) {
  let lo = 0, hi = chars.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (measure(chars.slice(0, mid).join('') + suffix, bold) <= maxWidth) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * A Measure from a 2D context, with the fonts the window is drawn in.
 * @param {CanvasRenderingContext2D} ctx
 * @returns {Measure}
 */
export function canvasMeasure(ctx) {
  return (text, bold) => {
    ctx.font = bold ? INFO_WINDOW.titleFont : INFO_WINDOW.snippetFont;
    return ctx.measureText(text).width;
  };
}

/**
 * Draws the window with its tail tip at (x, y), in CSS pixels of the context's transform.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} x
 * @param {number} y
 * @param {InfoWindowLayout} layout
 * @param {number} [pixelRatio=1]  the context's scale, which shadows do not follow
 */
export function drawInfoWindow(ctx, x, y, layout, pixelRatio = 1) {
  const L = INFO_WINDOW;
  const { width, height } = layout;
  const left = x - width / 2, right = x + width / 2, top = y - height, bottom = y - L.tail;
  const r = L.radius;
  ctx.save();
  ctx.beginPath();
  ctx.moveTo(left + r, top);
  ctx.arcTo(right, top, right, bottom, r);
  ctx.arcTo(right, bottom, left, bottom, r);
  ctx.lineTo(x + L.tailHalfWidth, bottom);
  ctx.lineTo(x, y);
  ctx.lineTo(x - L.tailHalfWidth, bottom);
  ctx.arcTo(left, bottom, left, top, r);
  ctx.arcTo(left, top, right, top, r);
  ctx.closePath();
  ctx.shadowColor = 'rgba(0, 0, 0, 0.3)';
  ctx.shadowBlur = 8 * pixelRatio;
  ctx.shadowOffsetY = 2 * pixelRatio;
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const line of layout.lines) {
    ctx.font = line.bold ? L.titleFont : L.snippetFont;
    ctx.fillStyle = line.bold ? L.titleColor : L.snippetColor;
    ctx.fillText(line.text, left + layout.padding, top + line.y);
  }
  ctx.restore();
}

