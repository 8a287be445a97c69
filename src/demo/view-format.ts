/**
 * Text of the live view: a device as a heading and a grid of `name value unit` cells (as many
 * columns as the terminal is wide), or as one compact line for logs. Pure functions of the view
 * model, so what a user sees is tested without a terminal.
 */
import { DeviceViewModel, type ControlView, type DeviceView } from '../console/devices/device-view-model.js';

/** Units the Wiren Board conventions imply by control type when a meta gives none. */
const IMPLIED_UNITS: Readonly<Record<string, string>> = {
  power: 'W',
  power_consumption: 'kWh',
  voltage: 'V',
  current: 'A',
  water_flow: 'm³/h',
  water_consumption: 'm³',
  temperature: '°C',
};

/** `on`/`off` for switches, else the value with its unit; `-` before the first value. */
export function valueText(control: ControlView): string {
  if (control.value === null) return '-';
  if (control.type === 'switch' || control.type === 'pushbutton')
    return control.value === '1' ? 'on' : control.value === '0' ? 'off' : control.value;
  const units = control.units || IMPLIED_UNITS[control.type] || '';
  return units === '' ? control.value : `${control.value} ${units}`;
}

/** Marks after the value: `*` writable, `!r` (etc.) error flags. */
function marks(control: ControlView): string {
  return `${control.readonly ? '' : '*'}${control.error === '' ? '' : ` !${control.error}`}`;
}

function deviceHeading(device: DeviceView): string {
  const error = device.error === '' ? '' : `  [error ${device.error}${device.error.includes('r') ? ': service gone' : ''}]`;
  return `${device.title || device.id}  (/devices/${device.id})${error}`;
}

/** Display width of a string (code points; the view uses no wide characters). */
function width(text: string): number {
  return [...text].length;
}

function pad(text: string, n: number): string {
  return text + ' '.repeat(Math.max(0, n - width(text)));
}

/** Cuts a line to the terminal width (so a redraw never wraps and miscounts lines). */
export function fit(line: string, columns: number): string {
  const chars = [...line];
  return chars.length <= columns ? line : chars.slice(0, Math.max(0, columns - 1)).join('') + '…';
}

/** The devices as headings and grids of cells, fitted to `columns`. */
export function deviceLines(devices: readonly DeviceView[], columns: number): string[] {
  const lines: string[] = [];
  for (const device of devices) {
    const controls = DeviceViewModel.controlsOf(device);
    lines.push(fit(deviceHeading(device), columns));
    if (controls.length === 0) {
      lines.push('  (no controls yet)');
      continue;
    }
    const nameWidth = Math.max(...controls.map((c) => width(c.name)));
    const cells = controls.map((c) => `${pad(c.name, nameWidth)}  ${valueText(c)}${marks(c)}`);
    const cellWidth = Math.max(...cells.map(width)) + 2;
    const perRow = Math.max(1, Math.floor((columns - 2) / cellWidth));
    const rows = Math.ceil(cells.length / perRow);
    // Column-major, so names read down like a list.
    for (let r = 0; r < rows; r++) {
      const row: string[] = [];
      for (let c = 0; c < perRow; c++) {
        const cell = cells[c * rows + r];
        if (cell !== undefined) row.push(pad(cell, cellWidth));
      }
      lines.push(fit(('  ' + row.join('')).trimEnd(), columns));
    }
  }
  return lines;
}

/** One line per device for logs: `Discrete I/O: A1_IN_total=0.012 kWh, A1_IN_current=1500.0 W, ...`. */
export function compactLines(devices: readonly DeviceView[]): string[] {
  return devices.map((device) => {
    const values = DeviceViewModel.controlsOf(device).map((c) => `${c.name}=${valueText(c)}${c.error === '' ? '' : ` !${c.error}`}`);
    return `${device.title || device.id}${device.error === '' ? '' : ` [error ${device.error}]`}: ${values.join(', ') || '(no controls yet)'}`;
  });
}

/** `1:05`, `1:02:03`. */
export function clockText(seconds: number): string {
  const s = Math.floor(seconds);
  const hms = [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
  const text = hms.map((n) => String(n).padStart(2, '0')).join(':');
  return hms[0] === 0 ? text.slice(3).replace(/^0/, '') : text.replace(/^0/, '');
}
