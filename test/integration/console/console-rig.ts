/**
 * The console's test rig: a real broker (mosquitto when installed), the demo's simulated board
 * built from the example configs, both services on it (sim GPIO, fake IIO) running copies of the
 * example configs, in the `ctl-mqtt` process as the demo runs it (with its own console), and
 * consoles in the test's process on the same files (their `feed` is the tests' to read), on free
 * ports. A console here applies a save as the demo's does: SIGHUP to the `ctl-mqtt` process.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdcConfig } from '../../../src/adc/config/load-adc-config.js';
import type { RunningConsole } from '../../../src/console/console-app.js';
import { createDemoBoard, type DemoBoard } from '../../../src/demo/demo-board.js';
import { startConsole } from '../../../src/console/console-app.js';
import { serviceFromSchema } from '../../../src/console/config/service-definitions.js';
import { createLogger } from '../../../src/core/log.js';
import { demoConfigFile } from '../../../src/demo/demo-console.js';
import { SERVICE_FILES, type ServiceKind } from '../../../src/demo/demo-paths.js';
import { DemoServices } from '../../../src/demo/demo-services.js';
import { loadGpioConfig } from '../../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../../src/mqtt/topic-length-limits.js';
import { freePort } from '../../helpers/free-port.js';
import { startTestBroker, type TestBroker } from '../../helpers/test-broker.js';

export interface ConsoleRig {
  readonly broker: TestBroker;
  readonly board: DemoBoard;
  readonly services: DemoServices;
  readonly console: RunningConsole;
  readonly url: string;
  readonly dir: string;
  /** The services' log lines so far. */
  readonly lines: string[];
  configFile(kind: ServiceKind): string;
  /** The level the sim shows on an output line (`value` file). */
  outputLevel(name: string): string;
  /** A second console on the same services, with a password (or none: null) and trusted proxies. */
  startConsole(passwordHash: string | null, trustedProxies?: readonly string[]): Promise<RunningConsole>;
  close(): Promise<void>;
}

export async function startConsoleRig(): Promise<ConsoleRig> {
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  const dir = mkdtempSync(join(tmpdir(), 'ctl-console-rig-'));
  const broker = await startTestBroker();
  const lines: string[] = [];
  const board = createDemoBoard(dir, gpio, adc);
  const services = new DemoServices({
    board,
    brokerUrl: broker.url,
    dir,
    consolePort: await freePort(),
    onLine: (l) => lines.push(l),
    onUnexpectedExit: (name) => lines.push(`${name} exited`),
  });
  // The demo's schema copies: its config copies, `-j` / `-J` and the listing on the simulated board.
  const { schemas } = services.consoleFiles;
  const reloadServices = async (): Promise<void> => {
    if (services.pid !== undefined) process.kill(services.pid, 'SIGHUP');
  };
  const consoles: RunningConsole[] = [];
  const start = async (passwordHash: string | null, trustedProxies?: readonly string[]): Promise<RunningConsole> => {
    const c = await startConsole({
      host: '127.0.0.1',
      port: 0,
      passwordHash,
      ...(trustedProxies === undefined ? {} : { trustedProxies }),
      broker: { url: broker.url },
      topicPrefix: '',
      services: schemas.map((schema) => serviceFromSchema(schema, { apply: reloadServices })),
      stateDir: join(dir, 'console'),
      log: createLogger({ namespace: 'console', write: (line) => lines.push(`console: ${line}`) }),
    });
    consoles.push(c);
    return c;
  };
  const main = await start(null);
  return {
    broker,
    board,
    services,
    console: main,
    url: main.url,
    dir,
    lines,
    configFile: (kind) => demoConfigFile(kind, dir),
    outputLevel(name) {
      const line = board.outputs.find((o) => o.channel.name === name);
      if (line === undefined) throw new Error(`no output ${name}`);
      return readFileSync(join(line.lineDir, 'value'), 'utf8').trim();
    },
    startConsole: (hash, trustedProxies) => start(hash, trustedProxies),
    async close() {
      for (const c of consoles) await c.close().catch(() => undefined);
      await services.stopAll();
      await broker.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export { eventually } from '../../helpers/wait-until.js';
