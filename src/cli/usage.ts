/** The `--help` text, built from the option table so it cannot drift from the parser. */
import { BINARY, DEFAULT_DEVICE_ID, WIREN_BOARD_DEVICE_ID, type DriverKind } from './cli-options.js';
import { OPTIONS } from './option-table.js';

const SUMMARY: Record<DriverKind, string> = {
  gpio: 'Publishes the discrete inputs and outputs of Linux GPIO chips (with pulse counters) on MQTT.',
  adc: 'Publishes the analog inputs of Linux IIO devices on MQTT.',
};

/** The binary's hardware listing option. */
const LIST_MODE: Record<DriverKind, string> = { gpio: '--list-lines', adc: '--list-channels' };

export function usageText(driver: DriverKind): string {
  const binary = BINARY[driver];
  const rows = OPTIONS.filter((o) => !o.only || o.only === driver).map((o) => {
    const spelled = o.names
      .map((n) => {
        if (!o.metavar) return n;
        if (o.value === 'optional') return `${n}[=${o.metavar}]`;
        return `${n} ${o.metavar}`;
      })
      .join(', ');
    const help = o.help
      .replace(/BINARY/g, binary)
      .replace(/LIST_MODE/g, LIST_MODE[driver])
      .replace(/DEVICE_ID/g, `${DEFAULT_DEVICE_ID[driver]}; ${WIREN_BOARD_DEVICE_ID[driver]} on a Wiren Board`);
    return [spelled, help] as const;
  });
  const width = Math.max(...rows.map(([s]) => s.length)) + 2;
  const lines = rows.map(([s, h]) => `  ${s.padEnd(width)}${h}`);
  return [
    `Usage: ${binary} [OPTION]...`,
    SUMMARY[driver],
    '',
    'Options:',
    ...lines,
    '',
    'Exit status: 0 success, 1 runtime failure, 2 bad arguments, 6 invalid configuration.',
    '',
  ].join('\n');
}
