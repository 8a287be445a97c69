/**
 * The guest half of the side-by-side bench (bench/scenarios/peer-mqtt-io.ts boots the HIL guest
 * and runs this file in it): mqtt-io and ctl-mqtt-gpio (a plain input with an output, and a meter)
 * at the same time, each on gpio-sim lines of its own of one chip, publishing to one mosquitto in
 * the guest.
 *   node dist/bench/peer/peer-guest.js [--peer-python VENV/bin/python] [--only ctl]
 * For each program:
 * - edge to MQTT latency: single edges 50 ms apart, from the write of the line's pull to the
 *   message at a subscriber (CTL_PEER_LATENCY_EDGES, enough for a p99), to each program in turn;
 * - open-loop pulse trains at each edge spacing: the pulses a subscriber can rebuild (OFF→ON rises
 *   in the input's payload stream; for the ctl-mqtt meter, the count it publishes) against the
 *   pulses driven;
 * - CPU per edge driven (utime + stime of the process over the trains), memory when idle after them;
 * - output round trip: a command on MQTT to the gpio-sim line's value, to each program in turn
 *   (CTL_PEER_ROUND_TRIPS, enough for a p99).
 * And the whole system beside the GPIO service: ctl-mqtt-adc (the example config on a simulated
 * IIO tree) and ctl-mqtt-console started next to it, the memory of each.
 * Prints one line `peer-result: {json}` at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { freePort } from '../../test/helpers/free-port.js';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { lineDir, puller, simChip, type SimChip } from '../../test/hil/gpio-sim-rig.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

/** V8 flags tried on ctl-mqtt-gpio beside the package's (memory for CPU): BENCH_CONTROLLER_FLAGS="--lite-mode". */
const EXTRA_FLAGS = (process.env['BENCH_CONTROLLER_FLAGS'] ?? '').split(/\s+/).filter((f) => f !== '');
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { topicLengthCheck } from '../../src/mqtt/topic-length-limits.js';
import { createDemoBoard, type DemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { CTL_DEBOUNCE_MS, MQTT_IO_BOUNCETIME_MS, type Memory, type ProgramResult } from './peer-guest-settings.js';
import { risesIn } from './pulse-stream.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const CHIP = 'pinctrl-bcm2711';
/** Lines of each program (gpio-sim, pinctrl-bcm2711): they all run at once. */
const LINES = { ctl: { in: 20, out: 21 }, meter: { in: 24 }, mqttIo: { in: 22, out: 23 } } as const;
const SPACINGS = (process.env.CTL_PEER_SPACINGS ?? '20,10,5,2,1').split(',').map(Number);
const PULSES = Number(process.env.CTL_PEER_PULSES ?? 500);
const LATENCY_EDGES = Number(process.env.CTL_PEER_LATENCY_EDGES ?? 1000);
const ROUND_TRIPS = Number(process.env.CTL_PEER_ROUND_TRIPS ?? 1000);
/** mqtt-io's cold start in a TCG guest took 17 - 88 s on a loaded host: minutes, not seconds. */
const START_DEADLINE_MS = Number(process.env.CTL_PEER_START_S ?? 300) * 1000;

interface Program {
  label: string;
  /** Starts the program on its lines; the broker on 127.0.0.1:port. */
  start(dir: string, chip: SimChip, port: number): ChildProcess;
  /** The input line it reads. */
  inOffset: number;
  /** The message that says the program is ready for edges. */
  ready: { what: string; topic: string; payload?: string };
  /** Topic and payloads of the input's level. */
  inputTopic: string;
  payload(high: boolean): string;
  /** Topic and payloads of an output command (undefined: no output in this run). */
  outputSet?: { topic: string; on: string; off: string; offset: number };
  /** A counter's topic and how many pulses its value is (the meter variant). */
  counter?: { topic: string; pulses(value: string): number };
  /** Starts the rest of a controller beside it and measures their RSS (the whole-system figure). */
  companions?: boolean;
  /** The whole controller runs in this program (the package's one process): ready for its memory figure. */
  wholeController?: (messages: Array<{ topic: string }>, gone: () => string | undefined) => Promise<void>;
}

/** How ctl-mqtt runs: as the package does, one process (default), or each service alone (CTL_PEER_PROCESSES=separate). */
const SEPARATE = process.env['CTL_PEER_PROCESSES'] === 'separate';

function ctlProgram(meter: boolean): Program {
  const id = meter ? 'peer-ctl-meter' : 'peer-ctl';
  const controls = `/devices/${id}/controls`;
  const inputTopic = meter ? `${controls}/M_total` : `${controls}/IN`;
  const oneProcess = !meter && !SEPARATE;
  return {
    label: meter
      ? 'ctl-mqtt-gpio (watt_meter)'
      : oneProcess
        ? 'ctl-mqtt (input; GPIO, ADC, console in one process)'
        : 'ctl-mqtt-gpio (input)',
    start(dir, chip, port) {
      const gpio = { chip: chip.path, offset: meter ? LINES.meter.in : LINES.ctl.in };
      const channels = meter
        ? [{ name: 'M', gpio, direction: 'input', type: 'watt_meter', multiplier: 1000, edge: 'rising', debounce: CTL_DEBOUNCE_MS }]
        : [
            { name: 'IN', gpio, direction: 'input', debounce: CTL_DEBOUNCE_MS },
            { name: 'OUT', gpio: { chip: chip.path, offset: LINES.ctl.out }, direction: 'output' },
          ];
      const config = join(dir, `${id}.conf`);
      writeFileSync(config, JSON.stringify({ device_name: 'Peer bench', channels }));
      const gpioArgs = [
        '-c',
        config,
        '--system-config-dir',
        dir,
        '--gpio-backend',
        'cdev',
        '--state-file',
        join(dir, `${id}.state.json`),
        '--broker',
        `mqtt://127.0.0.1:${port}`,
        '--device-id',
        id,
      ];
      const args = oneProcess
        ? [
            ...NODE_FLAGS,
            ...EXTRA_FLAGS,
            join(root, 'dist/bin/ctl-mqtt.js'),
            '--gpio',
            ...gpioArgs,
            ...companionSections(dir, port, CONSOLE_PORT),
          ]
        : [...NODE_FLAGS, ...EXTRA_FLAGS, join(root, 'dist/bin/ctl-mqtt-gpio.js'), ...gpioArgs];
      // As the installed command runs it (packaging/bin, the unit): a larger libuv pool, one of whose
      // threads the GPIO event waiter keeps.
      const env = { ...process.env, UV_THREADPOOL_SIZE: process.env.UV_THREADPOOL_SIZE ?? '6' };
      return spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    },
    ready: { what: 'first value', topic: inputTopic },
    inOffset: meter ? LINES.meter.in : LINES.ctl.in,
    inputTopic,
    payload: (high) => (high ? '1' : '0'),
    ...(meter
      ? { counter: { topic: `${controls}/M_total`, pulses: (v: string) => Math.round(Number(v) * 1000) } }
      : { outputSet: { topic: `${controls}/OUT/on`, on: '1', off: '0', offset: LINES.ctl.out } }),
    ...(meter
      ? {}
      : oneProcess
        ? { wholeController: (messages, gone) => controllerUp(messages, CONSOLE_PORT, gone) }
        : { companions: true }),
  };
}

/** The one process's console port in the guest (one such console per run; nothing else listens there). */
const CONSOLE_PORT = 18080;

/** The demo's simulated board (ADC inputs on a fake IIO tree) for the ADC service beside the GPIO one. */
function companionBoard(dir: string): DemoBoard {
  const adcFiles = SERVICE_FILES.adc;
  const adcConfig = loadAdcConfig(adcFiles.config, adcFiles.boardDir, topicLengthCheck()).config;
  const gpioConfig = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir, topicLengthCheck()).config;
  return createDemoBoard(join(dir, 'board'), gpioConfig, adcConfig);
}

/** The console's command line: on its own port, no password (loopback), the repository's schemas. */
function consoleArgs(dir: string, port: number, httpPort: number): string[] {
  const schemas = ['gpio', 'adc'].flatMap((k) => ['--schema', join(root, `schemas/ctl-mqtt-${k}.schema.json`)]);
  return ['--port', String(httpPort), '--broker', `mqtt://127.0.0.1:${port}`, '--password-file', join(dir, 'no-password'), ...schemas];
}

/** `--adc ... --console ...` of the one process: the example ADC config on the simulated IIO tree, and the console. */
function companionSections(dir: string, port: number, httpPort: number): string[] {
  const board = companionBoard(dir);
  return ['--adc', ...demoServiceArgs('adc', board, `mqtt://127.0.0.1:${port}`, dir), '--console', ...consoleArgs(dir, port, httpPort)];
}

/**
 * Waits until the ADC's values are out and the console answers, then 5 s more: the controller's
 * memory is taken with every part started. `gone()` says the process ended (the wait is futile).
 */
async function controllerUp(messages: Array<{ topic: string }>, httpPort: number, gone: () => string | undefined): Promise<void> {
  const adcFiles = SERVICE_FILES.adc;
  const adcConfig = loadAdcConfig(adcFiles.config, adcFiles.boardDir, topicLengthCheck()).config;
  const until = performance.now() + START_DEADLINE_MS;
  const adcTopics = (): number =>
    new Set(messages.filter((m) => m.topic.startsWith(`/devices/${adcFiles.deviceId}/`)).map((m) => m.topic)).size;
  while (adcTopics() < adcConfig.channels.length) {
    const why = gone();
    if (why !== undefined || performance.now() > until)
      throw new Error(`ctl-mqtt-adc: no values within ${START_DEADLINE_MS} ms${why ? `: ${why}` : ''}`);
    await sleep(20);
  }
  for (;;) {
    const why = gone();
    if (why !== undefined || performance.now() > until)
      throw new Error(`ctl-mqtt-console: no answer within ${START_DEADLINE_MS} ms${why ? `: ${why}` : ''}`);
    if (
      await fetch(`http://127.0.0.1:${httpPort}/`).then(
        (r) => r.ok || r.status < 500,
        () => false,
      )
    )
      break;
    await sleep(100);
  }
  await sleep(5000);
}

function mqttIoProgram(python: string): Program {
  return {
    label: 'mqtt-io (gpiod module)',
    start(dir, chip, port) {
      const config = join(dir, 'mqtt-io.yml');
      writeFileSync(
        config,
        [
          'mqtt:',
          '  host: 127.0.0.1',
          `  port: ${port}`,
          '  topic_prefix: peer',
          'gpio_modules:',
          '  - name: sim',
          '    module: gpiod',
          `    chip: ${chip.path}`,
          'digital_inputs:',
          '  - name: in',
          '    module: sim',
          `    pin: ${LINES.mqttIo.in}`,
          '    interrupt: both',
          `    bouncetime: ${MQTT_IO_BOUNCETIME_MS}`,
          'digital_outputs:',
          '  - name: out',
          '    module: sim',
          `    pin: ${LINES.mqttIo.out}`,
          // Its default logs a line per interrupt; ours logs nothing per edge.
          'logging:',
          '  version: 1',
          '  handlers:',
          '    console: { class: logging.StreamHandler, level: WARNING }',
          '  loggers:',
          '    mqtt_io: { level: WARNING, handlers: [console] }',
          '',
        ].join('\n'),
      );
      return spawn(python, ['-m', 'mqtt_io', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    },
    // An input with interrupts publishes nothing before its first edge; the status says it is up.
    ready: { what: 'status running', topic: 'peer/status', payload: 'running' },
    inOffset: LINES.mqttIo.in,
    inputTopic: 'peer/input/in',
    payload: (high) => (high ? 'ON' : 'OFF'),
    outputSet: { topic: 'peer/output/out/set', on: 'ON', off: 'OFF', offset: LINES.mqttIo.out },
  };
}

/** utime + stime of a process, in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function memoryOf(pid: number): Memory {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  const mib = (...fields: string[]): number =>
    fields.reduce((sum, f) => sum + Number(new RegExp(`^${f}:\\s+(\\d+) kB`, 'm').exec(rollup)?.[1] ?? NaN), 0) / 1024;
  return { rss: mib('Rss'), private: mib('Private_Clean', 'Private_Dirty'), shared: mib('Shared_Clean', 'Shared_Dirty') };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * ctl-mqtt-adc (the example config on a simulated IIO tree) and ctl-mqtt-console on the same
 * broker, beside the running GPIO service: their memory once the ADC's values are out and the
 * console answers.
 */
async function companionsMemory(
  dir: string,
  port: number,
  client: mqtt.MqttClient,
  messages: Array<{ topic: string }>,
): Promise<Record<string, Memory>> {
  const board = companionBoard(dir);
  await client.subscribeAsync(`/devices/${SERVICE_FILES.adc.deviceId}/controls/+`);
  const adc = spawn(
    process.execPath,
    [...NODE_FLAGS, SERVICE_FILES.adc.entry, ...demoServiceArgs('adc', board, `mqtt://127.0.0.1:${port}`, dir)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const httpPort = await freePort();
  const console_ = spawn(
    process.execPath,
    [...NODE_FLAGS, join(root, 'dist/bin/ctl-mqtt-console.js'), ...consoleArgs(dir, port, httpPort)],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  const exited = (): string | undefined =>
    adc.exitCode !== null
      ? `ctl-mqtt-adc exited ${adc.exitCode}`
      : console_.exitCode !== null
        ? `ctl-mqtt-console exited ${console_.exitCode}`
        : undefined;
  try {
    await controllerUp(messages, httpPort, exited);
    return { 'ctl-mqtt-adc': memoryOf(adc.pid!), 'ctl-mqtt-console': memoryOf(console_.pid!) };
  } finally {
    await Promise.all([stop(adc), stop(console_)]);
  }
}

/** A program started on its lines, with what it printed last. */
interface Running {
  program: Program;
  child: ChildProcess;
  line: ReturnType<typeof puller>;
  high: boolean;
  dir: string;
  startedAt: number;
  stderr: string;
}

type Message = { topic: string; payload: string; at: number };

class Bench {
  readonly messages: Message[] = [];

  constructor(
    readonly client: mqtt.MqttClient,
    readonly chip: SimChip,
    readonly port: number,
  ) {
    client.on('message', (topic, payload) => this.messages.push({ topic, payload: payload.toString(), at: performance.now() }));
  }

  async launch(program: Program): Promise<Running> {
    const line = puller(this.chip, program.inOffset);
    line.set(false);
    await this.client.subscribeAsync([
      ...new Set([program.inputTopic, program.ready.topic, ...(program.counter ? [program.counter.topic] : [])]),
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'peer-'));
    const r: Running = {
      program,
      child: program.start(dir, this.chip, this.port),
      line,
      high: false,
      dir,
      startedAt: performance.now(),
      stderr: '',
    };
    r.child.stderr!.on('data', (d: Buffer) => (r.stderr = (r.stderr + d.toString()).slice(-4000)));
    return r;
  }

  async waitFor(r: Running, what: string, ok: () => boolean, timeoutMs: number): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (!ok()) {
      if (r.child.exitCode !== null) throw new Error(`${r.program.label} exited ${r.child.exitCode}: ${r.stderr}`);
      if (performance.now() > until) throw new Error(`${r.program.label}: no ${what} within ${timeoutMs} ms: ${r.stderr}`);
      await sleep(2);
    }
  }

  /** Seconds from the start to the program's ready message. */
  async ready(r: Running): Promise<number> {
    const { what, topic, payload } = r.program.ready;
    await this.waitFor(
      r,
      what,
      () => this.messages.some((m) => m.topic === topic && (payload === undefined || m.payload === payload)),
      START_DEADLINE_MS,
    );
    const s = (performance.now() - r.startedAt) / 1000;
    console.log(`peer bench: ${r.program.label} ready after ${s.toFixed(1)} s`);
    return s;
  }

  /** One edge of the program's input: ms from the pull write to its value at the subscriber. */
  async edge(r: Running): Promise<number> {
    r.high = !r.high;
    const from = this.messages.length;
    const want = r.program.payload(r.high);
    const t0 = performance.now();
    r.line.set(r.high);
    const arrived = (): Message | undefined =>
      this.messages.slice(from).find((m) => m.topic === r.program.inputTopic && m.payload === want);
    await this.waitFor(r, 'edge value', () => arrived() !== undefined, 5000);
    return arrived()!.at - t0;
  }

  /**
   * One output command: ms from the publish to the gpio-sim value. The line is watched from the
   * publish on, not from the broker's PUBACK: the PUBACK says nothing about the program, and
   * waiting for it added the bench's own delays (up to ~40 ms when the bench's kernel was slow
   * to acknowledge the previous PUBACK and the broker held the next one) to either program's figure.
   */
  async command(r: Running): Promise<number> {
    const out = r.program.outputSet!;
    const value = join(lineDir(this.chip, out.offset), 'value');
    const read = (): boolean => readFileSync(value, 'utf8').trim() === '1';
    const on = !read();
    const t0 = performance.now();
    const acknowledged = this.client.publishAsync(out.topic, on ? out.on : out.off, { qos: 1 });
    while (read() !== on) {
      if (performance.now() - t0 > 5000) throw new Error(`${r.program.label}: output did not follow within 5 s: ${r.stderr}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ms = performance.now() - t0;
    await acknowledged;
    return ms;
  }

  private inputPayloads(r: Running, from: number): string[] {
    return this.messages
      .slice(from)
      .filter((m) => m.topic === r.program.inputTopic)
      .map((m) => m.payload);
  }

  private lastCount(r: Running): number {
    const c = r.program.counter!;
    const last = this.messages.filter((m) => m.topic === c.topic).at(-1);
    return last ? c.pulses(last.payload) : 0;
  }

  /** Open-loop trains at each spacing while the other programs idle; CPU per edge over them. */
  async trains(r: Running): Promise<{ trains: ProgramResult['trains']; cpuMsPerEdge: number }> {
    const trains: ProgramResult['trains'] = [];
    const cpuBefore = cpuMs(r.child.pid!);
    let edges = 0;
    for (const spacingMs of SPACINGS) {
      const from = this.messages.length;
      const before = this.inputPayloads(r, 0).at(-1);
      const countBefore = r.program.counter ? this.lastCount(r) : 0;
      for (let i = 0; i < PULSES; i++) {
        r.line.set(true);
        await sleep(spacingMs);
        r.line.set(false);
        await sleep(spacingMs);
      }
      r.high = false;
      edges += 2 * PULSES;
      await sleep(2000);
      const published = r.program.counter
        ? this.lastCount(r) - countBefore
        : risesIn(this.inputPayloads(r, from), r.program.payload(true), before);
      console.log(`peer bench: ${r.program.label}, ${spacingMs} ms: ${published} of ${PULSES}`);
      trains.push({ spacingMs, driven: PULSES, published });
    }
    return { trains, cpuMsPerEdge: (cpuMs(r.child.pid!) - cpuBefore) / edges };
  }
}

/**
 * Every program runs at once, each on lines of its own: latency edges and output commands go to
 * them in turn (who goes first alternates), so a change of the host's load falls on all of them
 * alike; the pulse trains go to one program at a time while the others idle.
 */
async function measureAll(programs: Program[], port: number): Promise<ProgramResult[]> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 5 });
  const bench = new Bench(client, simChip(CHIP), port);
  const running: Running[] = [];
  try {
    for (const p of programs) running.push(await bench.launch(p));
    const startS = await Promise.all(running.map((r) => bench.ready(r)));
    await sleep(1000);
    const edgeDriven = running.filter((r) => !r.program.counter);
    const latencyMs = running.map((): number[] => []);
    for (let i = 0; i < LATENCY_EDGES; i++) {
      const order = i % 2 === 0 ? edgeDriven : [...edgeDriven].reverse();
      for (const r of order) {
        latencyMs[running.indexOf(r)]!.push(await bench.edge(r));
        await sleep(50);
      }
    }
    console.log(`peer bench: ${LATENCY_EDGES} latency edges each`);
    const roundTripMs = running.map((): number[] => []);
    const commanded = running.filter((r) => r.program.outputSet);
    for (let i = 0; i < ROUND_TRIPS; i++) {
      const order = i % 2 === 0 ? commanded : [...commanded].reverse();
      for (const r of order) {
        roundTripMs[running.indexOf(r)]!.push(await bench.command(r));
        await sleep(20);
      }
    }
    for (const r of edgeDriven) if (r.high) r.line.set((r.high = false));
    await sleep(500);
    const results: ProgramResult[] = [];
    for (const [i, r] of running.entries()) {
      const { trains, cpuMsPerEdge } = await bench.trains(r);
      await sleep(2000);
      if (r.program.wholeController) {
        await client.subscribeAsync(`/devices/${SERVICE_FILES.adc.deviceId}/controls/+`);
        await r.program.wholeController(bench.messages, () =>
          r.child.exitCode !== null ? `exited ${r.child.exitCode}: ${r.stderr}` : undefined,
        );
      }
      const memory = memoryOf(r.child.pid!);
      results.push({
        label: r.program.label,
        startS: startS[i]!,
        latencyMs: latencyMs[i]!,
        trains,
        cpuMsPerEdge,
        memory,
        roundTripMs: roundTripMs[i]!,
        ...(r.program.wholeController ? { wholeController: true } : {}),
      });
    }
    const beside = running.findIndex((r) => r.program.companions);
    if (beside >= 0) results[beside]!.companions = await companionsMemory(running[beside]!.dir, port, client, bench.messages);
    return results;
  } finally {
    for (const r of running) r.line.close();
    await Promise.all(running.map((r) => stop(r.child)));
    await client.endAsync();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const python = args[args.indexOf('--peer-python') + 1];
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const broker = await startMosquitto();
  const port = Number(new URL(broker.url).port);
  const programs: Program[] = [ctlProgram(false), ctlProgram(true)];
  if (only !== 'ctl') {
    if (python === undefined || !args.includes('--peer-python')) throw new Error('--peer-python VENV/bin/python is needed (or --only ctl)');
    programs.push(mqttIoProgram(python));
  }
  let results: ProgramResult[];
  try {
    results = await measureAll(programs, port);
  } finally {
    await broker.close();
  }
  console.log(`peer-result: ${JSON.stringify(results)}`);
}

await main();
