/**
 * What a scenario does with the service: write a config, start the real binary
 * (`dist/src/cli/gpio-main.js`) on the rig, watch its device on the broker, stop it with a signal
 * or kill it, start it again on the same state file. Processes are killed after the test.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { MqttRecorder, type Recorded } from '../../helpers/mqtt-recorder.js';
import { spawnNode, type Spawned } from '../../helpers/spawned.js';
import type { GpioServiceRig } from './rig.js';
import { waitUntil } from '../../helpers/wait-until.js';

/** The GPIO binary as built. */
export const GPIO_MAIN = fileURLToPath(new URL('../../../src/cli/gpio-main.js', import.meta.url));

/** One channel of a config, in the config file's own words. */
export type ChannelJson = Record<string, unknown>;

export interface ServiceProcess extends Spawned {
  /** Waits until stderr has a line matching `pattern` (it comes through a pipe, apart from MQTT); the timeout is scaled by the rig. */
  log(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL (a crash or power cut as the state file sees it) and wait. */
  kill9(): Promise<void>;
}

export interface ScenarioRun {
  readonly rig: GpioServiceRig;
  readonly deviceId: string;
  /** `/devices/<deviceId>/controls/`. */
  readonly controls: string;
  readonly stateFile: string;
  /** The board directory the service reads (`--system-config-dir`), empty at first. */
  readonly boardDir: string;
  readonly recorder: MqttRecorder;
  /**
   * Writes the config and starts the service (extra command-line arguments after the rig's).
   * `channels` is the channel list, or the whole config file as text (written as it is).
   */
  start(channels: ChannelJson[] | string, extra?: string[]): ServiceProcess;
  /** Writes the config (as `start` does) without starting anything: for a reload. */
  writeConfig(channels: ChannelJson[] | string): void;
  /** Waits for a value of a control (`payload` given: that one), published after `from`; timeouts are scaled by the rig. */
  value(control: string, payload?: string, options?: { from?: number; timeoutMs?: number }): Promise<Recorded>;
  /** The last non-empty value of a control seen so far. */
  lastValue(control: string): string | undefined;
  /** Publishes a command to `<control>/on`. */
  command(control: string, payload: string): Promise<void>;
}

/** A service's command line on the rig for a run, after the binary: its config, board, state, broker and device. */
export function runArgs(rig: GpioServiceRig, run: Pick<ScenarioRun, 'boardDir' | 'stateFile' | 'deviceId'>, configFile: string): string[] {
  return [
    '-c',
    configFile,
    '--system-config-dir',
    run.boardDir,
    '--state-file',
    run.stateFile,
    '--broker',
    rig.brokerUrl,
    '--device-id',
    run.deviceId,
    ...rig.serviceArgs(),
  ];
}

/** A chip/offset pair of the rig in config form. */
export function gpioOf(rig: GpioServiceRig, chip: number, offset: number): { chip: string; offset: number } {
  return { chip: rig.chips[chip]!.path, offset };
}

export async function scenarioRun(t: TestContext, rig: GpioServiceRig, name: string): Promise<ScenarioRun> {
  const deviceId = `gpio-${name}`;
  const dir = join(rig.tmpDir, name);
  mkdirSync(dir, { recursive: true });
  const boardDir = join(dir, 'board');
  mkdirSync(boardDir, { recursive: true });
  const stateFile = join(dir, 'state.json');
  const configFile = join(dir, 'ctl-mqtt-gpio.conf');
  const controls = `/devices/${deviceId}/controls/`;
  const recorder = await MqttRecorder.start(rig.brokerUrl, [`/devices/${deviceId}/#`]);
  t.after(() => recorder.close());
  const publisher = await MqttRecorder.start(rig.brokerUrl, [`${controls}none`]);
  t.after(() => publisher.close());
  let service: ServiceProcess | undefined;
  const writeConfig = (channels: ChannelJson[] | string): void => {
    const text = typeof channels === 'string' ? channels : JSON.stringify({ device_name: `Scenario ${name}`, channels }, null, 2);
    writeFileSync(configFile, text);
  };
  return {
    rig,
    deviceId,
    controls,
    stateFile,
    boardDir,
    recorder,
    writeConfig,
    start(channels, extra = []) {
      writeConfig(channels);
      const args = [rig.command, ...runArgs(rig, { boardDir, stateFile, deviceId }, configFile), ...extra];
      service = spawnService(t, args, rig.timeScale);
      return service;
    },
    async value(control, payload, options = {}) {
      const timeoutMs = (options.timeoutMs ?? 10_000) * rig.timeScale;
      try {
        return await recorder.waitForTopic(`${controls}${control}`, payload, { ...options, timeoutMs });
      } catch (err) {
        // What the service said explains most timeouts (it crashed, is still starting, lost its broker).
        if (err instanceof Error && service !== undefined) err.message += `\n${describeService(service)}`;
        throw err;
      }
    },
    lastValue(control) {
      const topic = `${controls}${control}`;
      return recorder.messages.filter((m) => m.topic === topic && m.payload !== '').at(-1)?.payload;
    },
    async command(control, payload) {
      await publisher.client.publishAsync(`${controls}${control}/on`, payload, { qos: 1 });
    },
  };
}

/** The service's state and the end of its stderr, for a failure message. */
function describeService(service: ServiceProcess): string {
  const { exitCode, signalCode } = service.child;
  const state = exitCode !== null ? `exited ${exitCode}` : signalCode !== null ? `killed by ${signalCode}` : 'running';
  const tail = service.stderr().trimEnd().split('\n').slice(-15).join('\n  ');
  return `the service (pid ${service.child.pid}) is ${state}; its stderr ends:\n  ${tail || '(nothing)'}`;
}

function spawnService(t: TestContext, args: string[], timeScale: number): ServiceProcess {
  const spawned = spawnNode(t, args);
  return {
    ...spawned,
    async log(pattern, timeoutMs = 10_000) {
      const line = (): string | undefined =>
        spawned
          .stderr()
          .split('\n')
          .find((l) => pattern.test(l));
      await waitUntil(() => line() !== undefined, `a log line matching ${pattern}`, {
        timeoutMs: timeoutMs * timeScale,
        intervalMs: 10,
      }).catch((err: Error) => {
        throw new Error(`${err.message} in:\n${spawned.stderr()}`);
      });
      return line()!;
    },
    async kill9() {
      spawned.child.kill('SIGKILL');
      await spawned.exit;
    },
  };
}

/** What a pulse train applied. */
export interface TrainResult {
  /** Rising edges applied (an upper bound of what a rising-edge counter can have counted). */
  rises: number;
  /** Whole pulses (rise and fall) seen by the line. */
  pulses: number;
}

/**
 * Applies up to `count` pulses to a line, each edge paced by what the line shows (the `value`
 * file: on the sim the service mirrors what it saw there; on gpio-sim the kernel shows it) and
 * held for at least `holdMs` (the rig's `edgeHoldMs` unless given). `afterRise` runs after each
 * rising edge before its hold (a closed loop: e.g. wait until the service counted it); `onPulse`
 * runs after each pulse; `stop()` returning true ends the train at the next edge (also while
 * waiting for one: once the service is gone nobody mirrors the sim's lines).
 */
export async function pulseTrain(
  rig: GpioServiceRig,
  chip: number,
  offset: number,
  count: number,
  options: {
    holdMs?: number;
    afterRise?: (pulse: number) => Promise<void>;
    onPulse?: (pulses: number) => void;
    stop?: () => boolean;
  } = {},
): Promise<TrainResult> {
  const holdMs = options.holdMs ?? rig.edgeHoldMs;
  const stop = options.stop ?? (() => false);
  const result: TrainResult = { rises: 0, pulses: 0 };
  while (result.pulses < count && !stop()) {
    for (const level of [true, false]) {
      if (stop()) return result;
      await rig.setInput(chip, offset, level);
      if (level) result.rises++;
      if (!(await waitForLevel(rig, chip, offset, level, stop))) return result;
      if (level) await options.afterRise?.(result.pulses + 1);
      await sleep(holdMs);
    }
    result.pulses++;
    options.onPulse?.(result.pulses);
  }
  return result;
}

/** Waits until the line shows `level`; false when `stop()` said to give up first. */
export async function waitForLevel(
  rig: GpioServiceRig,
  chip: number,
  offset: number,
  level: boolean,
  stop: () => boolean = () => false,
): Promise<boolean> {
  let stopped = false;
  await waitUntil(
    async () => (await rig.level(chip, offset)) === level || (stopped = stop()),
    `chip ${chip} line ${offset} to go ${level ? 'high' : 'low'}`,
    {
      timeoutMs: 5000 * rig.timeScale,
      intervalMs: 1,
    },
  );
  return !stopped;
}
