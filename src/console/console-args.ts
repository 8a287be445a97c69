/**
 * The command line of `ctl-mqtt-console`. Long options take `--opt=value` or `--opt value`; the
 * last occurrence wins, except `--schema`, `--apply` and `--trusted-proxy`, which add up. A mistake is a CtlError
 * USAGE with one line saying what is wrong.
 */
import { portNumber, usageError } from '../core/arguments.js';
import { trustedProxyProblem } from './http/client-address.js';

export const CONSOLE_BINARY = 'ctl-mqtt-console';
export const DEFAULT_CONSOLE_PORT = 8080;
export const DEFAULT_PASSWORD_FILE = '/var/lib/ctl-mqtt-console/password';
/** The packaged schemas, in the order of the console's menu. */
export const DEFAULT_SCHEMAS = ['/usr/share/ctl-mqtt-gpio/ctl-mqtt-gpio.schema.json', '/usr/share/ctl-mqtt-adc/ctl-mqtt-adc.schema.json'];

export interface ConsoleArgs {
  readonly mode: 'run' | 'help' | 'version' | 'set-password';
  readonly listen: string;
  readonly port: number;
  readonly brokerUrl: string;
  readonly username: string | null;
  readonly password: string | null;
  readonly topicPrefix: string;
  /** Empty: the packaged ones that exist. */
  readonly schemas: readonly string[];
  /** Service name → command (split on spaces, run without a shell). */
  readonly apply: ReadonlyMap<string, readonly string[]>;
  readonly passwordFile: string;
  /** Reverse proxies whose X-Forwarded-For names the client. */
  readonly trustedProxies: readonly string[];
}

export const CONSOLE_USAGE = `Usage: ${CONSOLE_BINARY} [options]

A web page showing every device on the MQTT broker live, and forms for the configurations of
ctl-mqtt-gpio and ctl-mqtt-adc. It listens on 127.0.0.1 unless told otherwise; any other address
needs a password (--set-password).

Options:
  --listen ADDR          address to listen on (default 127.0.0.1; 0.0.0.0 = every address)
  --port N               TCP port (default ${DEFAULT_CONSOLE_PORT})
  --broker URL           MQTT broker (default mqtt://localhost:1883; mqtt, mqtts, ws, wss, unix)
  -u, --username USER    broker user
  -P, --password PASS    broker password
  -T, --topic-prefix P   the services' topic prefix (P/devices/...)
  --schema FILE          a service's schema (repeat for each; default: the installed ones)
  --apply SERVICE=CMD    how a saved config takes effect (default: systemctl reload-or-restart SERVICE);
                         CMD is split on spaces and run without a shell
  --password-file FILE   the console password's hash (default ${DEFAULT_PASSWORD_FILE})
  --trusted-proxy ADDR   a reverse proxy (IP address) in front of the console: its X-Forwarded-For
                         names the client, so wrong passwords lock out only the guessing address,
                         not everyone behind the proxy (repeat for each; default: none, the
                         header is ignored)
  --set-password         read a new console password from stdin, store its hash, exit
  --help, --version      print and exit
`;

function parsePort(text: string): number {
  const n = portNumber(text);
  if (n === undefined) throw usageError(`--port must be a port number 1..65535 (got '${text}')`);
  return n;
}

type Draft = { -readonly [K in keyof ConsoleArgs]: ConsoleArgs[K] } & {
  apply: Map<string, readonly string[]>;
  schemas: string[];
  trustedProxies: string[];
};

const FLAGS: Readonly<Record<string, ConsoleArgs['mode']>> = { '--help': 'help', '--version': 'version', '--set-password': 'set-password' };

const VALUED: Readonly<Record<string, (d: Draft, value: string, as: string) => void>> = {
  '--listen': (d, v) => {
    if (v === '') throw usageError('--listen needs an address');
    d.listen = v.replace(/^\[(.*)\]$/, '$1');
  },
  '--port': (d, v) => {
    d.port = parsePort(v);
  },
  '--broker': (d, v) => {
    d.brokerUrl = v;
  },
  '-u': (d, v) => {
    d.username = v;
  },
  '-P': (d, v) => {
    d.password = v;
  },
  '-T': (d, v) => {
    d.topicPrefix = v;
  },
  '--schema': (d, v) => {
    if (v === '') throw usageError('--schema needs a file');
    d.schemas.push(v);
  },
  '--apply': (d, v) => {
    const eq = v.indexOf('=');
    const command =
      eq > 0
        ? v
            .slice(eq + 1)
            .split(' ')
            .filter((w) => w !== '')
        : [];
    if (eq <= 0 || command.length === 0) throw usageError(`--apply takes SERVICE=COMMAND (got '${v}')`);
    d.apply.set(v.slice(0, eq), command);
  },
  '--trusted-proxy': (d, v) => {
    const problem = trustedProxyProblem(v);
    if (problem !== undefined) throw usageError(problem);
    d.trustedProxies.push(v);
  },
  '--password-file': (d, v) => {
    if (v === '') throw usageError('--password-file needs a file');
    d.passwordFile = v;
  },
};

const ALIASES: Readonly<Record<string, string>> = { '--username': '-u', '--password': '-P', '--topic-prefix': '-T' };

export function parseConsoleArgs(argv: readonly string[]): ConsoleArgs {
  const d: Draft = {
    mode: 'run',
    listen: '127.0.0.1',
    port: DEFAULT_CONSOLE_PORT,
    brokerUrl: 'mqtt://localhost:1883',
    username: null,
    password: null,
    topicPrefix: '',
    schemas: [],
    apply: new Map(),
    passwordFile: DEFAULT_PASSWORD_FILE,
    trustedProxies: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const mode = FLAGS[arg];
    if (mode !== undefined) {
      if (d.mode === 'run' || mode === 'help') d.mode = mode;
      continue;
    }
    const eq = arg.indexOf('=');
    const typed = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const name = ALIASES[typed] ?? typed;
    const apply = VALUED[name];
    if (apply === undefined) throw usageError(arg.startsWith('-') ? `unknown option '${typed}'` : `unexpected argument '${arg}'`);
    let value: string | undefined = arg.startsWith('--') && eq > 0 ? arg.slice(eq + 1) : undefined;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw usageError(`option '${typed}' needs a value`);
      value = argv[++i]!;
    }
    apply(d, value, typed);
  }
  return d;
}
