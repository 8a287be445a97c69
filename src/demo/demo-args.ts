/**
 * The demo's command line (`npm start -- [options]`): `--port N`, `--ws-port N`, `--duration S`,
 * `--help`. Long options take `--opt=value` or `--opt value`; the last occurrence wins. A mistake
 * is a CtlError USAGE with one line saying what is wrong.
 */
import { portNumber, usageError } from '../core/arguments.js';

export interface DemoOptions {
  readonly help: boolean;
  /** TCP port of the embedded broker on 127.0.0.1. */
  readonly port: number;
  /** Port of MQTT over WebSocket on 127.0.0.1. */
  readonly wsPort: number;
  /** Port of the web console on 127.0.0.1. */
  readonly consolePort: number;
  /** Stop by itself after this many seconds; null = until Ctrl-C. */
  readonly durationS: number | null;
}

export const DEFAULT_DEMO_PORT = 1883;
/** Rarely taken, so a broker already on 1883 is the only likely clash. */
export const DEFAULT_DEMO_WS_PORT = 18883;
export const DEFAULT_DEMO_CONSOLE_PORT = 8080;

/** How the user runs the demo; used in hints and error lines. */
export const DEMO_COMMAND = 'npm start --';

export const DEMO_USAGE = `Usage: ${DEMO_COMMAND} [options]

Runs the whole system on this machine without hardware: an embedded MQTT broker, a simulated
board (GPIO chips with a pulsing electricity meter, a water meter, toggling inputs and outputs;
an IIO ADC whose voltages drift) and both services with the example configs, with a live view
of their devices, and the web console (devices live, configuration forms). Ctrl-C stops
everything.

Options:
  --port N          broker port on 127.0.0.1 (default ${DEFAULT_DEMO_PORT})
  --ws-port N       MQTT over WebSocket port on 127.0.0.1 (default ${DEFAULT_DEMO_WS_PORT})
  --console-port N  web console port on 127.0.0.1 (default ${DEFAULT_DEMO_CONSOLE_PORT})
  --duration S      stop after S seconds (default: run until Ctrl-C)
  --help            print this and exit
`;

function parsePort(name: string, text: string): number {
  const n = portNumber(text);
  if (n === undefined) throw usageError(`${name} must be a port number 1..65535 (got '${text}')`);
  return n;
}

function parseDuration(text: string): number {
  const s = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN;
  if (!(s > 0) || !Number.isFinite(s)) throw usageError(`--duration must be a number of seconds > 0 (got '${text}')`);
  return s;
}

const VALUED: Readonly<Record<string, (draft: Draft, value: string) => void>> = {
  '--port': (d, v) => {
    d.port = parsePort('--port', v);
  },
  '--ws-port': (d, v) => {
    d.wsPort = parsePort('--ws-port', v);
  },
  '--console-port': (d, v) => {
    d.consolePort = parsePort('--console-port', v);
  },
  '--duration': (d, v) => {
    d.durationS = parseDuration(v);
  },
};

type Draft = { -readonly [K in keyof DemoOptions]: DemoOptions[K] };

/** Parses the demo's arguments; throws CtlError USAGE on a mistake. */
export function parseDemoArgs(argv: readonly string[]): DemoOptions {
  const draft: Draft = {
    help: false,
    port: DEFAULT_DEMO_PORT,
    wsPort: DEFAULT_DEMO_WS_PORT,
    consolePort: DEFAULT_DEMO_CONSOLE_PORT,
    durationS: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      draft.help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const apply = VALUED[name];
    if (apply === undefined) {
      throw usageError(arg.startsWith('-') ? `unknown option '${name}'` : `unexpected argument '${arg}'`);
    }
    let value: string | undefined = eq > 0 && arg.startsWith('--') ? arg.slice(eq + 1) : undefined;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw usageError(`option '${name}' needs a value`);
      value = argv[++i]!;
    }
    apply(draft, value);
  }
  if (draft.port === draft.wsPort) throw usageError(`--port and --ws-port must differ (both ${draft.port})`);
  if (draft.consolePort === draft.port || draft.consolePort === draft.wsPort)
    throw usageError(`--console-port must differ from the broker's ports (${draft.consolePort})`);
  return draft;
}
