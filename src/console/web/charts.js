// The devices page's charts, drawn as inline SVG by the page itself (no library: the console
// works offline and the pictures are simple). Every text from outside goes in as textContent.
import { clockTime, shownNumber } from './i18n.js';
import { t as texts } from './page-texts.js';

const SVG = 'http://www.w3.org/2000/svg';

function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** A number short enough for an axis: 4 significant digits, no exponent for everyday sizes, in the page's language. */
export function shortNumber(v) {
  if (!Number.isFinite(v)) return '—';
  return shownNumber(Math.abs(v) >= 10_000 ? v.toFixed(0) : String(Number(v.toPrecision(4))));
}

/** [t, v] or [t, min, mean, max] points as { t, lo, mid, hi }. */
function normalize(points) {
  return points.map((p) => (p.length === 2 ? { t: p[0], lo: p[1], mid: p[1], hi: p[1] } : { t: p[0], lo: p[1], mid: p[2], hi: p[3] }));
}

function range(values) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.01 || 1;
    lo -= pad;
    hi += pad;
  }
  return { lo, hi };
}

/**
 * The values as steps held until the next one, the last held until `until`: a service publishes
 * a value when it changes, so a value stands until the next message.
 */
function stepped(points, until) {
  const out = [];
  points.forEach((p, i) => {
    out.push(p);
    const next = i + 1 < points.length ? points[i + 1].t : until;
    if (next > p.t) out.push({ ...p, t: next });
  });
  return out;
}

function bandPoints(data, x, y) {
  return [
    ...data.map((p) => `${x(p.t).toFixed(1)},${y(p.hi).toFixed(1)}`),
    ...[...data].reverse().map((p) => `${x(p.t).toFixed(1)},${y(p.lo).toFixed(1)}`),
  ].join(' ');
}

function linePoints(data, x, y) {
  return data.map((p) => `${x(p.t).toFixed(1)},${y(p.mid).toFixed(1)}`).join(' ');
}

/**
 * The small chart beside a value: the last hour's minute means (a line) inside their min/max
 * (a band). Empty until there are two points.
 */
export function sparkline(points, now = Date.now(), width = 96, height = 24) {
  const svg = svgEl('svg', {
    class: 'spark-chart',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    'aria-hidden': 'true',
    focusable: 'false',
  });
  const data = stepped(normalize(points), now);
  if (data.length < 2) {
    svg.append(svgEl('line', { x1: 2, x2: width - 2, y1: height / 2, y2: height / 2, class: 'spark-empty' }));
    return svg;
  }
  const t0 = data[0].t;
  const t1 = Math.max(data[data.length - 1].t, t0 + 1);
  const { lo, hi } = range(data.flatMap((p) => [p.lo, p.hi]));
  const x = (t) => 1 + ((t - t0) / (t1 - t0)) * (width - 2);
  const y = (v) => height - 2 - ((v - lo) / (hi - lo)) * (height - 4);
  svg.append(svgEl('polygon', { points: bandPoints(data, x, y), class: 'band' }));
  svg.append(svgEl('polyline', { points: linePoints(data, x, y), class: 'line' }));
  return svg;
}

/** A line chart with its value axis and time axis; `units` goes on the value axis. */
export function lineChart(points, { width, height = 170, units = '', label, now = Date.now() }) {
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
  const data = stepped(normalize(points), now);
  const left = 52;
  const right = width - 8;
  const top = 8;
  const bottom = height - 22;
  if (data.length === 0) {
    svg.append(svgEl('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'axis' }, texts.noValuesYet));
    return svg;
  }
  const t0 = data[0].t;
  const t1 = Math.max(data[data.length - 1].t, t0 + 1);
  const { lo, hi } = range(data.flatMap((p) => [p.lo, p.hi]));
  const x = (t) => left + ((t - t0) / (t1 - t0)) * (right - left);
  const y = (v) => bottom - ((v - lo) / (hi - lo)) * (bottom - top);
  for (const v of [lo, (lo + hi) / 2, hi]) {
    svg.append(svgEl('line', { x1: left, x2: right, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(svgEl('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, shortNumber(v)));
  }
  if (units) svg.append(svgEl('text', { x: 2, y: top + 4, class: 'axis units-label' }, units));
  for (const [t, anchor] of [
    [t0, 'start'],
    [(t0 + t1) / 2, 'middle'],
    [t1, 'end'],
  ]) {
    svg.append(svgEl('text', { x: x(t), y: height - 6, 'text-anchor': anchor, class: 'axis' }, clockTime(t)));
  }
  if (data.some((p) => p.lo !== p.hi)) svg.append(svgEl('polygon', { points: bandPoints(data, x, y), class: 'band' }));
  svg.append(svgEl('polyline', { points: linePoints(data, x, y), class: 'line' }));
  return svg;
}

/** Bars of [label, value], e.g. consumption per hour or per day, with the largest on the axis. */
export function barChart(bars, { width, height = 150, units = '', label, labelEvery = 1 }) {
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
  const left = 52;
  const right = width - 8;
  const top = 8;
  const bottom = height - 22;
  if (bars.length === 0) {
    svg.append(svgEl('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'axis' }, texts.noConsumptionYet));
    return svg;
  }
  const max = Math.max(...bars.map((b) => b[1]), 0) || 1;
  const slot = (right - left) / bars.length;
  const y = (v) => bottom - (v / max) * (bottom - top);
  for (const v of [0, max / 2, max]) {
    svg.append(svgEl('line', { x1: left, x2: right, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(svgEl('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis' }, shortNumber(v)));
  }
  if (units) svg.append(svgEl('text', { x: 2, y: top + 4, class: 'axis units-label' }, units));
  bars.forEach(([text, value], i) => {
    const bar = svgEl('rect', {
      x: left + i * slot + slot * 0.15,
      y: y(value),
      width: Math.max(1, slot * 0.7),
      height: Math.max(0, bottom - y(value)),
      class: 'bar',
    });
    bar.append(svgEl('title', {}, `${text}: ${shortNumber(value)} ${units}`));
    svg.append(bar);
    if (i % labelEvery === 0)
      svg.append(svgEl('text', { x: left + (i + 0.5) * slot, y: height - 6, 'text-anchor': 'middle', class: 'axis' }, text));
  });
  return svg;
}
