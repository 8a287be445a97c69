/**
 * The command line of `ctl-mqtt`, the controller's host process:
 *
 *   ctl-mqtt [--defaults DIR] [--generate-boards] [--gpio ARGS...] [--adc ARGS...] [--console ARGS...]
 *
 * Each service's section is introduced by its name and holds the words of that service's own
 * command line, exactly as `ctl-mqtt-gpio`, `ctl-mqtt-adc` or `ctl-mqtt-console` take them, up to
 * the next section (none of the services has an option spelled `--gpio`, `--adc` or `--console`).
 * With `--defaults DIR` (what the package's unit gives), the services are those DIR/ctl-mqtt names
 * in CTL_MQTT_SERVICES (default all three) unless sections are given, and each service also gets
 * what DIR/ctl-mqtt-<service> gives its own unit: CTL_MQTT_OPTS appended to its words and every
 * variable in its environment.
 */
import { CtlError } from '../../core/errors.js';
import { usageError } from '../../core/arguments.js';

export const HOST_BINARY = 'ctl-mqtt';
export const SERVICE_KINDS = ['gpio', 'adc', 'console'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/** The unit (and binary) name of each service. */
export const SERVICE_BINARY: Readonly<Record<ServiceKind, string>> = {
  gpio: 'ctl-mqtt-gpio',
  adc: 'ctl-mqtt-adc',
  console: 'ctl-mqtt-console',
};

export interface HostSection {
  readonly kind: ServiceKind;
  readonly argv: readonly string[];
}

export type HostArgs =
  | { readonly mode: 'help' | 'version' }
  | {
      readonly mode: 'run';
      readonly defaultsDir: string | null;
      /** Make each GPIO and ADC service's board file before it starts (the units' `--generate-board` step). */
      readonly generateBoards: boolean;
      /** In the order given; empty with --defaults: the services DIR/ctl-mqtt names. */
      readonly sections: readonly HostSection[];
    };

export const HOST_USAGE = `Usage: ${HOST_BINARY} [--defaults DIR] [--generate-boards] [--gpio ARGS...] [--adc ARGS...] [--console ARGS...]

Runs the controller's services in one process: ctl-mqtt-gpio, ctl-mqtt-adc and ctl-mqtt-console,
each with its own configuration, MQTT connection, state and reload, at the memory of one.
Each section holds that service's own command line (see ctl-mqtt-gpio --help and the others).

Options:
  --defaults DIR       read DIR/ctl-mqtt (CTL_MQTT_SERVICES: which services, default all three)
                       and DIR/ctl-mqtt-<service> (CTL_MQTT_OPTS and the service's variables),
                       as the separate units read /etc/default; the package's unit gives /etc/default
  --generate-boards    make the GPIO and ADC board files from the device tree before each starts
  --help, --version    print and exit

Signals: SIGHUP reloads each service whose configuration (or, with --defaults, options) changed;
SIGTERM or SIGINT stops them all (exit 0).
`;

const isSection = (word: string): ServiceKind | undefined => SERVICE_KINDS.find((k) => word === `--${k}`);

/** @throws CtlError USAGE with one line saying what is wrong. */
export function parseHostArgs(argv: readonly string[]): HostArgs {
  let defaultsDir: string | null = null;
  let generateBoards = false;
  const sections: HostSection[] = [];
  let i = 0;
  for (; i < argv.length && isSection(argv[i]!) === undefined; i++) {
    const word = argv[i]!;
    if (word === '--help' || word === '-?') return { mode: 'help' };
    if (word === '--version') return { mode: 'version' };
    if (word === '--generate-boards') generateBoards = true;
    else if (word === '--defaults' || word.startsWith('--defaults=')) {
      const value = word === '--defaults' ? argv[++i] : word.slice('--defaults='.length);
      if (value === undefined || value === '') throw usageError('--defaults needs a directory');
      defaultsDir = value;
    } else throw usageError(`unknown option ${word} (the services' options go after --gpio, --adc or --console)`);
  }
  while (i < argv.length) {
    const kind = isSection(argv[i]!)!;
    const words: string[] = [];
    for (i++; i < argv.length && isSection(argv[i]!) === undefined; i++) words.push(argv[i]!);
    if (sections.some((s) => s.kind === kind)) throw usageError(`--${kind} given twice: one section per service`);
    sections.push({ kind, argv: words });
  }
  if (sections.length === 0 && defaultsDir === null) {
    throw new CtlError('USAGE', 'no service to run: give --gpio, --adc or --console (with their options), or --defaults DIR');
  }
  return { mode: 'run', defaultsDir, generateBoards, sections };
}
