/**
 * The demo from start to stop:
 * 1. read the example configs (the board is built from them), start the embedded broker;
 * 2. build the simulated board in a temp dir, put inputs at rest, start the ADC drift;
 * 3. watch the devices, start the `ctl-mqtt` process (both services and the web console), wait
 *    until the console listens, start the input activity and the live view;
 * 4. on Ctrl-C / SIGTERM (`stop`), `--duration`, or when every service is gone: stop the
 *    activity, SIGTERM the services (they clear their retained topics), check that the broker
 *    retains nothing of the devices, close the broker, remove the temp dir.
 * Exit code 0 when everything stopped cleanly, 1 when a service failed or left topics behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAdcConfig } from '../adc/config/load-adc-config.js';
import { messageOf } from '../core/errors.js';
import { loadGpioConfig } from '../gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../mqtt/topic-length-limits.js';
import { startAnalogDrift } from './analog-drift.js';
import { retainedDeviceTopics, watchDevices, type DeviceWatch } from './broker-watch.js';
import { connectionHints, outputToSwitch } from './connection-hints.js';
import type { DemoOptions } from './demo-args.js';
import { createDemoBoard } from './demo-board.js';
import { SERVICE_FILES } from './demo-paths.js';
import { DemoServices } from './demo-services.js';
import { DeviceViewModel } from '../console/devices/device-view-model.js';
import { startEmbeddedBroker } from './embedded-broker.js';
import { setIdleLevels, startGpioActivity, type Activity } from './gpio-activity.js';
import { LiveView, type ViewOutput } from './live-view.js';
import { describeExit, type ServiceExit } from './service-process.js';

export interface DemoIo {
  readonly stdout: ViewOutput;
  readonly stderr: { write(text: string): unknown };
}

const DEVICE_IDS = [SERVICE_FILES.gpio.deviceId, SERVICE_FILES.adc.deviceId];

/** Resolves when the demo should stop; says why. */
function stopTrigger(stop: AbortSignal, durationS: number | null, services: DemoServices): Promise<string> {
  return new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const done = (why: string): void => {
      for (const t of timers) clearTimeout(t);
      stop.removeEventListener('abort', onAbort);
      resolve(why);
    };
    const onAbort = (): void => done(String(stop.reason ?? 'stop requested'));
    if (stop.aborted) return onAbort();
    stop.addEventListener('abort', onAbort);
    if (durationS !== null) timers.push(setTimeout(() => done(`--duration ${durationS} s passed`), durationS * 1000));
    void services.exited().then(() => done('no service is running'));
  });
}

function exitSummary(exits: Map<string, ServiceExit>, leftovers: readonly string[] | Error): { lines: string[]; clean: boolean } {
  const parts = [...exits].map(([name, exit]) => `${name} ${describeExit(exit)}${exit.requested ? '' : ' on its own'}`);
  let clean = [...exits.values()].every((e) => e.requested && e.code === 0);
  let topics: string;
  if (leftovers instanceof Error) {
    topics = `could not check the device topics: ${leftovers.message}`;
    clean = false;
  } else if (leftovers.length === 0) {
    topics = 'device topics cleared';
  } else {
    topics = `${leftovers.length} retained device topics left (${leftovers.slice(0, 3).join(', ')}${leftovers.length > 3 ? ', ...' : ''})`;
    clean = false;
  }
  return { lines: [`Stopped: ${parts.join(', ')}; ${topics}; broker closed.`], clean };
}

/** Runs the demo until `stop` aborts (or `--duration`); resolves to the exit code. */
export async function runDemo(options: DemoOptions, io: DemoIo, stop: AbortSignal): Promise<number> {
  const gpio = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  const adc = loadAdcConfig(SERVICE_FILES.adc.config, SERVICE_FILES.adc.boardDir, topicLengthCheck()).config;
  const broker = await startEmbeddedBroker({ port: options.port, wsPort: options.wsPort });
  const dir = mkdtempSync(join(tmpdir(), 'ctl-mqtt-demo-'));
  let services: DemoServices | undefined;
  let view: LiveView | undefined;
  let watch: DeviceWatch | undefined;
  const activities: Activity[] = [];
  // If the process goes down without the orderly stop (a forced exit), leave nothing running.
  const emergency = (): void => {
    services?.killAll();
    rmSync(dir, { recursive: true, force: true });
    if (io.stdout.isTTY) io.stdout.write('\x1b[?25h');
  };
  process.once('exit', emergency);
  try {
    const board = createDemoBoard(dir, gpio, adc);
    setIdleLevels(board.inputs);
    activities.push(startAnalogDrift(board));
    const model = new DeviceViewModel();
    watch = await watchDevices(broker.url, DEVICE_IDS, model, () => view?.changed());
    services = new DemoServices({
      board,
      brokerUrl: broker.url,
      dir,
      consolePort: options.consolePort,
      onLine: (line) => view?.log(line),
      onUnexpectedExit: (name, exit) => {
        view?.log(`demo: ${name} ${describeExit(exit)}; it is not restarted (see its log above)`);
        view?.changed();
      },
    });
    const running = services;
    // A console that cannot start ends the demo, the services stopped in order (topics cleared).
    const consoleUrl = await services.consoleUrl.catch(async (err: unknown) => {
      await running.stopAll();
      throw err;
    });
    const output = outputToSwitch(board.outputs.map((o) => o.channel));
    const live = new LiveView({
      out: io.stdout,
      model,
      header: [
        ...connectionHints(broker, SERVICE_FILES.gpio.deviceId, output),
        `web console: ${consoleUrl}  (devices live, configuration forms)`,
      ],
      status: () => running.statusLines(),
    });
    view = live;
    live.start();
    activities.push(startGpioActivity(board.inputs));

    const why = await stopTrigger(stop, options.durationS, services);
    for (const a of activities) a.stop();
    // The last frame keeps the last values; from here on, plain lines.
    live.stop();
    io.stdout.write(`demo: stopping (${why})\n`);
    const exits = await services.stopAll();
    const leftovers = await retainedDeviceTopics(broker.url, DEVICE_IDS).catch((err: unknown) => new Error(messageOf(err)));
    await watch.close();
    const summary = exitSummary(exits, leftovers);
    await broker.close();
    for (const line of summary.lines) io.stdout.write(line + '\n');
    return summary.clean ? 0 : 1;
  } finally {
    view?.stop(); // after a failure: the cursor is shown again
    for (const a of activities) a.stop();
    services?.killAll();
    await watch?.close().catch(() => undefined); // else it would reconnect forever
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
    process.off('exit', emergency);
  }
}
