/**
 * The guest half of the side-by-side bench (bench/scenarios/peer-mqtt-io.ts boots the HIL guest
 * and runs this file in it): mqtt-io and ctl-mqtt-gpio, one after another, on the same gpio-sim
 * input line and output line, publishing to one mosquitto in the guest.
 *   node dist/bench/peer/peer-guest.js [--peer-python VENV/bin/python] [--only ctl]
 * For each program:
 * - edge to MQTT latency: single edges 50 ms apart, from the write of the line's pull to the
 *   message at a subscriber (CTL_PEER_LATENCY_EDGES, enough for a p99);
 * - open-loop pulse trains at each edge spacing: the pulses a subscriber can rebuild (OFF→ON rises
 *   in the input's payload stream; for the ctl-mqtt meter, the count it publishes) against the
 *   pulses driven;
 * - CPU per edge driven (utime + stime of the process over the trains), memory when idle after them;
 * - output round trip: a command on MQTT to the gpio-sim line's value.
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
import { NODE_FLAGS } from '../../src/core/service/node-flags.js';
import { loadAdcConfig } from '../../src/adc/config/load-adc-config.js';
import { loadGpioConfig } from '../../src/gpio/config/load-gpio-config.js';
import { createDemoBoard } from '../../src/demo/demo-board.js';
import { SERVICE_FILES } from '../../src/demo/demo-paths.js';
import { demoServiceArgs } from '../../src/demo/demo-services.js';
import { CTL_DEBOUNCE_MS, MQTT_IO_BOUNCETIME_MS, type Memory, type ProgramResult } from './peer-guest-settings.js';
import { risesIn } from './pulse-stream.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const CHIP = 'pinctrl-bcm2711';
const IN = 20;
const OUT = 21;
const SPACINGS = (process.env.CTL_PEER_SPACINGS ?? '20,10,5,2,1').split(',').map(Number);
const PULSES = Number(process.env.CTL_PEER_PULSES ?? 500);
const LATENCY_EDGES = Number(process.env.CTL_PEER_LATENCY_EDGES ?? 1000);
const ROUND_TRIPS = Number(process.env.CTL_PEER_ROUND_TRIPS ?? 50);
/** mqtt-io's cold start in a TCG guest took 17 - 88 s on a loaded host: minutes, not seconds. */
const START_DEADLINE_MS = Number(process.env.CTL_PEER_START_S ?? 300) * 1000;

interface Program {
  label: string;
  /** Starts the program on the lines; the broker on 127.0.0.1:port. */
  start(dir: string, chip: SimChip, port: number): ChildProcess;
  /** The message that says the program is ready for edges. */
  ready: { what: string; topic: string; payload?: string };
  /** Topic and payloads of the input's level. */
  inputTopic: string;
  payload(high: boolean): string;
  /** Topic and payloads of an output command (undefined: no output in this run). */
  outputSet?: { topic: string; on: string; off: string };
  /** A counter's topic and how many pulses its value is (the meter variant). */
  counter?: { topic: string; pulses(value: string): number };
  /** Starts the rest of a controller beside it and measures their RSS (the whole-system figure). */
  companions?: boolean;
}

function ctlProgram(meter: boolean): Program {
  const id = meter ? 'peer-ctl-meter' : 'peer-ctl';
  const controls = `/devices/${id}/controls`;
  const inputTopic = meter ? `${controls}/M_total` : `${controls}/IN`;
  return {
    label: meter ? 'ctl-mqtt-gpio (watt_meter)' : 'ctl-mqtt-gpio (input)',
    start(dir, chip, port) {
      const gpio = { chip: chip.path, offset: IN };
      const channels = meter
        ? [{ name: 'M', gpio, direction: 'input', type: 'watt_meter', multiplier: 1000, edge: 'rising', debounce: CTL_DEBOUNCE_MS }]
        : [
            { name: 'IN', gpio, direction: 'input', debounce: CTL_DEBOUNCE_MS },
            { name: 'OUT', gpio: { chip: chip.path, offset: OUT }, direction: 'output' },
          ];
      const config = join(dir, `${id}.conf`);
      writeFileSync(config, JSON.stringify({ device_name: 'Peer bench', channels }));
      const args = [
        ...NODE_FLAGS,
        join(root, 'dist/src/cli/gpio-main.js'), '-c', config, '--system-config-dir', dir, '--gpio-backend', 'cdev',
        '--state-file', join(dir, `${id}.state.json`), '--broker', `mqtt://127.0.0.1:${port}`, '--device-id', id,
      ];
      return spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    },
    ready: { what: 'first value', topic: inputTopic },
    inputTopic,
    payload: (high) => (high ? '1' : '0'),
    ...(meter
      ? { counter: { topic: `${controls}/M_total`, pulses: (v: string) => Math.round(Number(v) * 1000) } }
      : { outputSet: { topic: `${controls}/OUT/on`, on: '1', off: '0' }, companions: true }),
  };
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
          `    pin: ${IN}`,
          '    interrupt: both',
          `    bouncetime: ${MQTT_IO_BOUNCETIME_MS}`,
          'digital_outputs:',
          '  - name: out',
          '    module: sim',
          `    pin: ${OUT}`,
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
    inputTopic: 'peer/input/in',
    payload: (high) => (high ? 'ON' : 'OFF'),
    outputSet: { topic: 'peer/output/out/set', on: 'ON', off: 'OFF' },
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
async function companionsMemory(dir: string, port: number, client: mqtt.MqttClient, messages: Array<{ topic: string }>): Promise<Record<string, Memory>> {
  const adcFiles = SERVICE_FILES.adc;
  const adcConfig = loadAdcConfig(adcFiles.config, adcFiles.boardDir).config;
  const gpioConfig = loadGpioConfig(SERVICE_FILES.gpio.config, SERVICE_FILES.gpio.boardDir).config;
  const board = createDemoBoard(join(dir, 'board'), gpioConfig, adcConfig);
  const broker = `mqtt://127.0.0.1:${port}`;
  await client.subscribeAsync(`/devices/${adcFiles.deviceId}/controls/+`);
  const adc = spawn(process.execPath, [...NODE_FLAGS, adcFiles.entry, ...demoServiceArgs('adc', board, broker, dir)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const httpPort = await freePort();
  const schemas = ['gpio', 'adc'].flatMap((k) => ['--schema', join(root, `schemas/ctl-mqtt-${k}.schema.json`)]);
  const console_ = spawn(
    process.execPath,
    [...NODE_FLAGS, join(root, 'dist/src/cli/console-main.js'), '--port', String(httpPort), '--broker', broker, '--password-file', join(dir, 'no-password'), ...schemas],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  try {
    const until = performance.now() + START_DEADLINE_MS;
    const adcTopics = (): number => new Set(messages.filter((m) => m.topic.startsWith(`/devices/${adcFiles.deviceId}/`)).map((m) => m.topic)).size;
    while (adcTopics() < adcConfig.channels.length) {
      if (adc.exitCode !== null || performance.now() > until) throw new Error(`ctl-mqtt-adc: no values within ${START_DEADLINE_MS} ms`);
      await sleep(20);
    }
    for (;;) {
      if (console_.exitCode !== null || performance.now() > until) throw new Error(`ctl-mqtt-console: no answer within ${START_DEADLINE_MS} ms`);
      if (await fetch(`http://127.0.0.1:${httpPort}/`).then((r) => r.ok || r.status < 500, () => false)) break;
      await sleep(100);
    }
    await sleep(5000);
    return { 'ctl-mqtt-adc': memoryOf(adc.pid!), 'ctl-mqtt-console': memoryOf(console_.pid!) };
  } finally {
    await Promise.all([stop(adc), stop(console_)]);
  }
}

async function measure(program: Program, port: number): Promise<ProgramResult> {
  const chip = simChip(CHIP);
  const dir = mkdtempSync(join(tmpdir(), 'peer-'));
  const line = puller(chip, IN);
  line.set(false);
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 5 });
  const messages: Array<{ topic: string; payload: string; at: number }> = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString(), at: performance.now() }));
  await client.subscribeAsync([...new Set([program.inputTopic, program.ready.topic, ...(program.counter ? [program.counter.topic] : [])])]);
  const started = performance.now();
  const child = program.start(dir, chip, port);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const waitFor = async (what: string, ok: () => boolean, timeoutMs: number): Promise<void> => {
    const until = performance.now() + timeoutMs;
    while (!ok()) {
      if (child.exitCode !== null) throw new Error(`${program.label} exited ${child.exitCode}: ${stderr}`);
      if (performance.now() > until) throw new Error(`${program.label}: no ${what} within ${timeoutMs} ms: ${stderr}`);
      await sleep(5);
    }
  };
  const inputPayloads = (from: number): string[] => messages.slice(from).filter((m) => m.topic === program.inputTopic).map((m) => m.payload);
  try {
    const { what, topic, payload } = program.ready;
    await waitFor(what, () => messages.some((m) => m.topic === topic && (payload === undefined || m.payload === payload)), START_DEADLINE_MS);
    const startS = (performance.now() - started) / 1000;
    console.log(`peer bench: ${program.label} ready after ${startS.toFixed(1)} s`);
    await sleep(1000);

    const latencyMs: number[] = [];
    if (!program.counter) {
      let high = false;
      for (let i = 0; i < LATENCY_EDGES; i++) {
        high = !high;
        const from = messages.length;
        const t0 = performance.now();
        line.set(high);
        const want = program.payload(high);
        const arrived = (): { at: number } | undefined => messages.slice(from).find((m) => m.topic === program.inputTopic && m.payload === want);
        await waitFor('edge value', () => arrived() !== undefined, 5000);
        latencyMs.push(arrived()!.at - t0);
        await sleep(50);
      }
      if (high) line.set(false);
      await sleep(200);
    }

    const trains: ProgramResult['trains'] = [];
    const cpuBefore = cpuMs(child.pid!);
    let edges = 0;
    const lastCount = (): number => {
      const c = program.counter!;
      const last = messages.filter((m) => m.topic === c.topic).at(-1);
      return last ? c.pulses(last.payload) : 0;
    };
    for (const spacingMs of SPACINGS) {
      const from = messages.length;
      const before = inputPayloads(0).at(-1);
      const countBefore = program.counter ? lastCount() : 0;
      for (let i = 0; i < PULSES; i++) {
        line.set(true);
        await sleep(spacingMs);
        line.set(false);
        await sleep(spacingMs);
      }
      edges += 2 * PULSES;
      await sleep(2000);
      const published = program.counter ? lastCount() - countBefore : risesIn(inputPayloads(from), program.payload(true), before);
      console.log(`peer bench: ${program.label}, ${spacingMs} ms: ${published} of ${PULSES}`);
      trains.push({ spacingMs, driven: PULSES, published });
    }
    const cpuMsPerEdge = (cpuMs(child.pid!) - cpuBefore) / edges;
    await sleep(2000);
    const memory = memoryOf(child.pid!);

    const roundTripMs: number[] = [];
    const out = program.outputSet;
    if (out) {
      const value = join(lineDir(chip, OUT), 'value');
      const read = (): boolean => readFileSync(value, 'utf8').trim() === '1';
      let on = read();
      for (let i = 0; i < ROUND_TRIPS; i++) {
        on = !on;
        const t0 = performance.now();
        await client.publishAsync(out.topic, on ? out.on : out.off, { qos: 1 });
        while (read() !== on) {
          if (performance.now() - t0 > 5000) throw new Error(`${program.label}: output did not follow within 5 s: ${stderr}`);
          await new Promise((r) => setImmediate(r));
        }
        roundTripMs.push(performance.now() - t0);
        await sleep(20);
      }
    }
    const companions = program.companions ? await companionsMemory(dir, port, client, messages) : undefined;
    return { label: program.label, startS, latencyMs, trains, cpuMsPerEdge, memory, roundTripMs, ...(companions ? { companions } : {}) };
  } finally {
    line.close();
    await stop(child);
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
  const results: ProgramResult[] = [];
  try {
    for (const p of programs) {
      console.log(`peer bench: ${p.label}`);
      results.push(await measure(p, port));
    }
  } finally {
    await broker.close();
  }
  console.log(`peer-result: ${JSON.stringify(results)}`);
}

await main();
