/**
 * Minimal SVG charts for BENCHMARKS.md, written by hand to keep the bench free of dependencies:
 * a horizontal bar chart (one bar per label) and a cumulative distribution (latency).
 */

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function barChart(title: string, unit: string, bars: { label: string; value: number }[]): string {
  const width = 640;
  const rowH = 26;
  const left = 220;
  const top = 36;
  const height = top + bars.length * rowH + 16;
  const max = Math.max(...bars.map((b) => b.value), 1e-12);
  const rows = bars
    .map((b, i) => {
      const y = top + i * rowH;
      const w = Math.max(1, ((width - left - 90) * b.value) / max);
      return (
        `<text x="${left - 8}" y="${y + 16}" text-anchor="end">${esc(b.label)}</text>` +
        `<rect x="${left}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="#4a7bd0"/>` +
        `<text x="${(left + w + 6).toFixed(1)}" y="${y + 16}">${esc(fmt(b.value))} ${esc(unit)}</text>`
      );
    })
    .join('');
  return svg(width, height, title, rows);
}

export function cdfChart(title: string, unit: string, series: { label: string; samples: number[] }[]): string {
  const width = 640;
  const height = 360;
  const m = { l: 60, r: 20, t: 36, b: 44 };
  const all = series.flatMap((s) => s.samples);
  const xmax = Math.max(...all, 1e-12);
  const colors = ['#4a7bd0', '#d0644a', '#3a9a5b'];
  const px = (v: number) => m.l + ((width - m.l - m.r) * v) / xmax;
  const py = (q: number) => height - m.b - (height - m.t - m.b) * q;
  const lines = series
    .map((s, k) => {
      const sorted = [...s.samples].sort((a, b) => a - b);
      const pts = sorted.map((v, i) => `${px(v).toFixed(1)},${py((i + 1) / sorted.length).toFixed(1)}`).join(' ');
      const c = colors[k % colors.length];
      return (
        `<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts}"/>` +
        `<text x="${width - m.r - 4}" y="${m.t + 16 + 16 * k}" text-anchor="end" fill="${c}">${esc(s.label)}</text>`
      );
    })
    .join('');
  const axes =
    `<line x1="${m.l}" y1="${height - m.b}" x2="${width - m.r}" y2="${height - m.b}" stroke="#333"/>` +
    `<line x1="${m.l}" y1="${m.t}" x2="${m.l}" y2="${height - m.b}" stroke="#333"/>` +
    `<text x="${m.l}" y="${height - 12}">0</text>` +
    `<text x="${width - m.r}" y="${height - 12}" text-anchor="end">${esc(fmt(xmax))} ${esc(unit)}</text>` +
    `<text x="${m.l - 6}" y="${py(1) + 4}" text-anchor="end">100%</text>` +
    `<text x="${m.l - 6}" y="${py(0.5) + 4}" text-anchor="end">50%</text>`;
  return svg(width, height, title, axes + lines);
}

function svg(width: number, height: number, title: string, body: string): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">` +
    `<rect width="100%" height="100%" fill="#fff"/>` +
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${esc(title)}</text>${body}</svg>\n`
  );
}

export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  return v.toPrecision(2);
}
