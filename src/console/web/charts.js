// The devices page's charts, drawn as inline SVG by the page itself (no library: the console
// works offline and the pictures are simple). Every text from outside goes in as textContent.
import { clockTime, formatNumber, shownNumber } from './i18n.js';
import { t as texts } from './page-texts.js';

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A point of a chart's data: [time, value] as it came, or [minute, min, mean, max]; times in ms since the epoch.
 * @typedef {[number, number] | [number, number, number, number]} Point
 */
/**
 * A point as drawn: its time, its low, middle and high value (all one for a value as it came).
 * @typedef {{ t: number; lo: number; mid: number; hi: number }} Drawn
 */
/**
 * A value axis: its ends, round ticks and their decimals.
 * @typedef {{ lo: number; hi: number; ticks: number[]; decimals: number }} Axis
 */

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 */
function svgEl(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A number short enough for an axis: 4 significant digits, no exponent for everyday sizes, in the page's language.
 * @param {number} v
 */
export function shortNumber(v) {
  if (!Number.isFinite(v)) return '—';
  return shownNumber(Math.abs(v) >= 10_000 ? v.toFixed(0) : String(Number(v.toPrecision(4))));
}

/**
 * [t, v] or [t, min, mean, max] points as { t, lo, mid, hi }.
 * @param {Point[]} points
 * @returns {Drawn[]}
 */
function normalize(points) {
  return points.map((p) => (p.length === 2 ? { t: p[0], lo: p[1], mid: p[1], hi: p[1] } : { t: p[0], lo: p[1], mid: p[2], hi: p[3] }));
}

/**
 * A round step (1, 2 or 5 times a power of ten) that cuts `span` into about `count` parts.
 * @param {number} span
 * @param {number} count
 */
export function niceStep(span, count) {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  // 10 × power is always >= raw: the last of the four is the answer when no smaller one is.
  return [1, 2, 5].map((m) => m * power).find((step) => step >= raw * 0.999) ?? 10 * power;
}

/**
 * The value axis of `values`: round ticks (a 1-2-5 step) around them, over at least a sensible
 * span, so a steady reading is a steady line and not its noise blown up to the chart's height: a
 * twentieth of the values' size (a 3.3 V supply gets 3.2 to 3.4 V), a meter's total a
 * ten-thousandth (its increase is what matters), never less than 0.01. Values all at or above 0
 * keep 0 as the floor.
 * @param {number[]} values
 * @param {{ meter?: boolean; minimum?: number }} [options]
 * @returns {Axis}
 */
export function valueAxis(values, { meter = false, minimum = 0.01 } = {}) {
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  const magnitude = Math.max(Math.abs(lo), Math.abs(hi));
  const span = Math.max(hi - lo, magnitude * (meter ? 1e-4 : 0.05), minimum);
  if (hi - lo < span) {
    const mid = (lo + hi) / 2;
    const nonNegative = lo >= 0;
    lo = mid - span / 2;
    hi = mid + span / 2;
    if (nonNegative && lo < 0) [lo, hi] = [0, hi - lo];
  }
  const step = niceStep(hi - lo, 4);
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const first = Math.floor(lo / step + 1e-9);
  const last = Math.ceil(hi / step - 1e-9);
  const ticks = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toFixed(decimals)));
  return { lo: ticks[0], hi: ticks[ticks.length - 1], ticks, decimals };
}

/** Round steps of a time axis, in minutes. */
const TIME_STEPS_MIN = [1, 2, 5, 10, 15, 30, 60, 120, 180, 360, 720, 1440];

/**
 * Times on round minutes or hours of the local clock between t0 and t1, at most `most` of them.
 * @param {number} t0
 * @param {number} t1
 * @param {number} most
 */
export function timeTicks(t0, t1, most) {
  const minute = 60_000;
  const step = (TIME_STEPS_MIN.find((m) => (t1 - t0) / (m * minute) <= most) ?? 1440) * minute;
  // Aligned to the local clock (a 3 h step on 00:00, 03:00, ...), not to UTC.
  const offset = -new Date(t0).getTimezoneOffset() * minute;
  const ticks = [];
  for (let t = Math.ceil((t0 + offset) / step) * step - offset; t <= t1; t += step) ticks.push(t);
  return ticks;
}

/**
 * The value axis drawn: grid lines and their labels, and the units above them (never over the top label).
 * @param {SVGElement} svg
 * @param {Axis} axis
 * @param {(v: number) => number} y
 * @param {{ left: number; right: number; top: number; units: string }} where
 */
function drawValueAxis(svg, axis, y, { left, right, top, units }) {
  for (const v of axis.ticks) {
    svg.append(svgEl('line', { x1: left, x2: right, y1: y(v), y2: y(v), class: 'grid' }));
    svg.append(svgEl('text', { x: left - 4, y: y(v) + 4, 'text-anchor': 'end', class: 'axis tick-value' }, formatNumber(v, axis.decimals)));
  }
  if (units) svg.append(svgEl('text', { x: left - 4, y: top - 9, 'text-anchor': 'end', class: 'axis units-label' }, units));
}

/**
 * The values as steps held until the next one, the last held until `until`: a service publishes
 * a value when it changes, so a value stands until the next message.
 * @param {Drawn[]} points
 * @param {number} until
 */
function stepped(points, until) {
  /** @type {Drawn[]} */
  const out = [];
  points.forEach((p, i) => {
    out.push(p);
    const next = i + 1 < points.length ? points[i + 1].t : until;
    if (next > p.t) out.push({ ...p, t: next });
  });
  return out;
}

/**
 * @param {Drawn[]} data
 * @param {(t: number) => number} x
 * @param {(v: number) => number} y
 */
function bandPoints(data, x, y) {
  return [
    ...data.map((p) => `${x(p.t).toFixed(1)},${y(p.hi).toFixed(1)}`),
    ...[...data].reverse().map((p) => `${x(p.t).toFixed(1)},${y(p.lo).toFixed(1)}`),
  ].join(' ');
}

/**
 * @param {Drawn[]} data
 * @param {(t: number) => number} x
 * @param {(v: number) => number} y
 */
function linePoints(data, x, y) {
  return data.map((p) => `${x(p.t).toFixed(1)},${y(p.mid).toFixed(1)}`).join(' ');
}

/**
 * The small chart beside a value: the last hour's minute means (a line) inside their min/max
 * (a band). Empty until there are two points.
 * @param {Point[]} points
 * @param {{ meter?: boolean; now?: number; width?: number; height?: number }} [options]
 */
export function sparkline(points, { meter = false, now = Date.now(), width = 96, height = 24 } = {}) {
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
  const { lo, hi } = valueAxis(
    data.flatMap((p) => [p.lo, p.hi]),
    { meter },
  );
  const x = (/** @type {number} */ t) => 1 + ((t - t0) / (t1 - t0)) * (width - 2);
  const y = (/** @type {number} */ v) => height - 2 - ((v - lo) / (hi - lo)) * (height - 4);
  svg.append(svgEl('polygon', { points: bandPoints(data, x, y), class: 'band' }));
  svg.append(svgEl('polyline', { points: linePoints(data, x, y), class: 'line' }));
  return svg;
}

/** Room above the plot for the units, below it for the times. */
const TOP = 22;
const BOTTOM = 22;

/**
 * A line chart with its value axis and time axis; `units` goes above the value axis.
 * @param {Point[]} points
 * @param {{ width: number; height?: number; units?: string; label: string; now?: number; meter?: boolean }} options
 */
export function lineChart(points, { width, height = 180, units = '', label, now = Date.now(), meter = false }) {
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
  const data = stepped(normalize(points), now);
  const left = 56;
  const right = width - 8;
  const top = TOP;
  const bottom = height - BOTTOM;
  if (data.length === 0) {
    svg.append(svgEl('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'axis' }, texts.noValuesYet));
    return svg;
  }
  const t0 = data[0].t;
  const t1 = Math.max(data[data.length - 1].t, t0 + 1);
  const axis = valueAxis(
    data.flatMap((p) => [p.lo, p.hi]),
    { meter },
  );
  const x = (/** @type {number} */ t) => left + ((t - t0) / (t1 - t0)) * (right - left);
  const y = (/** @type {number} */ v) => bottom - ((v - axis.lo) / (axis.hi - axis.lo)) * (bottom - top);
  drawValueAxis(svg, axis, y, { left, right, top, units });
  for (const t of timeTicks(t0, t1, Math.max(2, Math.floor((right - left) / 64)))) {
    svg.append(svgEl('line', { x1: x(t), x2: x(t), y1: bottom, y2: bottom + 3, class: 'grid' }));
    svg.append(svgEl('text', { x: x(t), y: height - 6, 'text-anchor': 'middle', class: 'axis tick-time' }, clockTime(t)));
  }
  if (data.some((p) => p.lo !== p.hi)) svg.append(svgEl('polygon', { points: bandPoints(data, x, y), class: 'band' }));
  svg.append(svgEl('polyline', { points: linePoints(data, x, y), class: 'line' }));
  return svg;
}

/**
 * Bars of [label, value], e.g. consumption per hour or per day, with the largest on the axis.
 * @param {Array<[string, number]>} bars
 * @param {{ width: number; height?: number; units?: string; label: string; labelEvery?: number }} options
 */
export function barChart(bars, { width, height = 160, units = '', label, labelEvery = 1 }) {
  const svg = svgEl('svg', { class: 'chart', width, height, viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label });
  const left = 56;
  const right = width - 8;
  const top = TOP;
  const bottom = height - BOTTOM;
  if (bars.length === 0) {
    svg.append(svgEl('text', { x: width / 2, y: height / 2, 'text-anchor': 'middle', class: 'axis' }, texts.noConsumptionYet));
    return svg;
  }
  const axis = valueAxis([0, Math.max(...bars.map((b) => b[1]), 0)], { minimum: 0.001 });
  const slot = (right - left) / bars.length;
  const y = (/** @type {number} */ v) => bottom - (v / axis.hi) * (bottom - top);
  drawValueAxis(svg, axis, y, { left, right, top, units });
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
