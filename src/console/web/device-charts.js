// The charts of the devices page: a small chart of the last hour beside each numeric value (a
// button: it opens the larger chart below the row), and the larger chart with its views: the
// last hour as the values came, the last 24 h per minute, and for a meter its consumption per
// hour and per day. The history comes from the console (GET /api/history/...), which keeps it.
import { el, get } from './api.js';
import { barChart, lineChart, shortNumber, sparkline } from './charts.js';
import { clockTime, dayLabel, unitText } from './i18n.js';
import { t } from './page-texts.js';

const SPARK_REFRESH_MS = 60_000;
const CHART_REFRESH_MS = 15_000;
const HOUR_MS = 3_600_000;

/**
 * A control's history as GET /api/history/<device>/<control> answers (times in ms since the epoch).
 * @typedef {object} History
 * @property {boolean} meter
 * @property {string} units
 * @property {Array<[number, number]>} recent the values as they came: [time, value]
 * @property {Array<[number, number, number, number]>} minutes [minute, min, mean, max]
 * @property {Array<[number, number]>} hours a meter's consumption: [hour, consumption]
 */
/**
 * The larger chart of a row.
 * @typedef {{ tr: HTMLTableRowElement; show(): void; close(): void }} Chart
 */
/**
 * What the charts need of a row of the devices page.
 * @typedef {object} ChartRow
 * @property {string} deviceId
 * @property {{ name: string }} control
 * @property {HTMLTableRowElement} tr
 * @property {HTMLButtonElement | null} spark
 * @property {Chart | null} chart
 */

/**
 * Rows with a small chart, refreshed one after the other every minute.
 * @type {Set<ChartRow>}
 */
const sparkRows = new Set();
let refreshing = false;

/**
 * @param {ChartRow} row
 * @param {'hour' | 'all'} last
 * @returns {Promise<History | null>}
 */
async function history(row, last) {
  const url = `/api/history/${encodeURIComponent(row.deviceId)}/${encodeURIComponent(row.control.name)}${last === 'hour' ? '?last=hour' : ''}`;
  try {
    const res = await get(url);
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

/**
 * The small chart's button; `open` toggles the larger chart.
 * @param {ChartRow} row
 * @param {() => void} open
 */
export function sparkButton(row, open) {
  const button = el('button', { type: 'button', class: 'spark', 'aria-expanded': 'false', 'aria-label': t.chartOf(row.control.name) });
  button.append(sparkline([]));
  button.addEventListener('click', open);
  sparkRows.add(row);
  return button;
}

/** @param {ChartRow} row */
export async function refreshSpark(row) {
  const doc = await history(row, 'hour');
  if (doc === null || row.spark === null) return;
  row.spark.replaceChildren(sparkline(doc.minutes, { meter: doc.meter }));
  // A control seen for the first time has a line only after a few values: look again soon.
  if (doc.minutes.length < 2 && row.tr.isConnected) setTimeout(() => void refreshSpark(row), 5000);
}

setInterval(async () => {
  if (refreshing) return;
  refreshing = true;
  try {
    for (const row of [...sparkRows]) {
      if (!row.tr.isConnected) sparkRows.delete(row);
      else await refreshSpark(row);
    }
  } finally {
    refreshing = false;
  }
}, SPARK_REFRESH_MS);

const VIEWS = [
  { id: 'hour', text: t.views.hour },
  { id: 'day', text: t.views.day },
  { id: 'hourly', text: t.views.hourly, meter: true },
  { id: 'daily', text: t.views.daily, meter: true },
];

/**
 * Opens the row's larger chart (made on first use, right below the row), or closes it.
 * @template {ChartRow} R
 * @param {R} row
 * @param {(row: R) => void} place puts the chart's row where it belongs
 */
export function openChart(row, place) {
  if (row.chart === null) row.chart = makeChart(row);
  place(row);
  if (row.chart.tr.hidden) row.chart.show();
  else row.chart.close();
}

/**
 * @param {ChartRow} row
 * @returns {Chart}
 */
function makeChart(row) {
  const tr = el('tr', { class: 'chart-row', 'data-chart-for': row.control.name });
  const td = el('td', { colspan: '4' });
  const panel = el('div', { class: 'chart-panel', role: 'group', 'aria-label': t.chartGroup(row.control.name) });
  const views = el('div', { class: 'chart-views' });
  const figure = el('div', { class: 'chart-figure' });
  const summary = el('p', { class: 'chart-summary' });
  panel.append(views, figure, summary);
  td.append(panel);
  tr.append(td);
  tr.hidden = true;
  let view = 'hour';
  /** @type {ReturnType<typeof setInterval> | undefined} */
  let timer;
  /** @type {History | null} */
  let doc = null;
  /** @type {Map<string, HTMLButtonElement>} */
  const buttons = new Map();
  for (const v of VIEWS) {
    const button = el('button', { type: 'button', 'aria-pressed': String(v.id === view), 'data-view': v.id }, v.text);
    button.hidden = v.meter === true;
    button.addEventListener('click', () => {
      view = v.id;
      for (const [id, b] of buttons) b.setAttribute('aria-pressed', String(id === view));
      draw();
    });
    buttons.set(v.id, button);
    views.append(button);
  }
  const draw = () => {
    if (doc === null) return;
    for (const v of VIEWS) {
      const button = buttons.get(v.id);
      if (v.meter && button !== undefined) button.hidden = !doc.meter;
    }
    const width = Math.max(260, figure.clientWidth || 520);
    const { svg, text } = drawView(view, doc, width, row.control.name);
    figure.replaceChildren(svg);
    if (summary.textContent !== text) summary.textContent = text;
  };
  const load = async () => {
    const fresh = await history(row, 'all');
    if (fresh !== null) {
      doc = fresh;
      draw();
    }
  };
  return {
    tr,
    show() {
      tr.hidden = false;
      row.spark?.setAttribute('aria-expanded', 'true');
      void load();
      clearInterval(timer);
      timer = setInterval(load, CHART_REFRESH_MS);
    },
    close() {
      tr.hidden = true;
      row.spark?.setAttribute('aria-expanded', 'false');
      clearInterval(timer);
    },
  };
}

/**
 * @param {string} view `hour`, `day`, `hourly` or `daily`
 * @param {History} doc
 * @param {number} width
 * @param {string} name
 * @returns {{ svg: SVGElement; text: string }}
 */
function drawView(view, doc, width, name) {
  const units = unitText(doc.units);
  const withUnits = (/** @type {number} */ v) => `${shortNumber(v)}${units ? ` ${units}` : ''}`;
  if (view === 'hour' || view === 'day') {
    const since = Date.now() - (view === 'hour' ? HOUR_MS : 24 * HOUR_MS);
    /** @type {import('./charts.js').Point[]} */
    const points = view === 'hour' ? doc.recent.filter((p) => p[0] >= since) : doc.minutes;
    // The value standing when the hour began (values come when they change).
    const before = view === 'hour' ? doc.recent.filter((p) => p[0] < since).pop() : undefined;
    if (before !== undefined) points.unshift([since, before[1]]);
    const label = view === 'hour' ? t.labelHour(name) : t.labelDay(name);
    const svg = lineChart(points, { width, units, label, meter: doc.meter });
    if (points.length === 0) return { svg, text: t.noValues };
    const lows = points.map((p) => p[1]);
    const highs = points.map((p) => p[p.length - 1]);
    const mean =
      view === 'hour' ? lows.reduce((a, b) => a + b, 0) / lows.length : doc.minutes.reduce((a, p) => a + p[2], 0) / points.length;
    return {
      svg,
      text: t.summaryLine(view === 'hour', withUnits(Math.min(...lows)), withUnits(mean), withUnits(Math.max(...highs)), points.length),
    };
  }
  if (view === 'hourly') {
    const now = Date.now();
    const thisHour = Math.floor(now / HOUR_MS) * HOUR_MS;
    const byHour = new Map(doc.hours.map(([t, v]) => [t, v]));
    /** @type {Array<[string, number]>} */
    const bars = [];
    for (let at = thisHour - 23 * HOUR_MS; at <= thisHour; at += HOUR_MS) bars.push([clockTime(at).slice(0, 2), byHour.get(at) ?? 0]);
    const total = bars.reduce((a, b) => a + b[1], 0);
    const svg = barChart(bars, { width, units, label: t.labelHourly(name), labelEvery: 3 });
    return { svg, text: t.summaryHourly(withUnits(total), withUnits(bars[bars.length - 1][1])) };
  }
  // Per day, in the browser's time zone: hours summed by their local date.
  /** @type {Map<string, { label: string; value: number }>} */
  const days = new Map();
  for (const [at, v] of doc.hours) {
    const d = new Date(at);
    const key = `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
    const day = days.get(key) ?? { label: dayLabel(at), value: 0 };
    day.value += v;
    days.set(key, day);
  }
  const bars = [...days.values()].map((d) => /** @type {[string, number]} */ ([d.label, d.value]));
  const svg = barChart(bars, { width, units, label: t.labelDaily(name), labelEvery: bars.length > 10 ? 5 : 1 });
  const today = bars.length > 0 ? bars[bars.length - 1][1] : 0;
  return { svg, text: bars.length === 0 ? t.noConsumption : t.summaryDaily(withUnits(today), bars.length) };
}
