/**
 * The guest half of the side-by-side bench (bench/scenarios/peer-mqtt-io.ts boots the HIL guest
 * and runs this file in it): mqtt-io and ctl-mqtt-gpio, one after another, on the same gpio-sim
 * input line and output line, publishing to one mosquitto in the guest.
 *   node dist/bench/peer/peer-guest.js [--peer-python VENV/bin/python] [--only ctl]
 * For each program:
 * - edge to MQTT latency: single edges 50 ms apart, from the write of the line's pull to the
 *   message at a subscriber (p50, p99);
 * - open-loop pulse trains at each edge spacing: pulses published (mqtt-io: one message per edge
 *   of an input with interrupts; ctl-mqtt: the level of a plain input, and separately the count
 *   of a watt_meter) against pulses driven;
 * - CPU per edge driven (utime + stime of the process over the trains), RSS when idle after them;
 * - output round trip: a command on MQTT to the gpio-sim line's value.
 * Prints one line `peer-result: {json}` at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { startMosquitto } from '../../test/helpers/mosquitto.js';
import { lineDir, puller, simChip, type SimChip } from '../../test/hil/gpio-sim-rig.js';
import { NODE_FLAGS } from '../../src/service/node-flags.js';

const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const CHIP = 'pinctrl-bcm2711';
const IN = 20;
const OUT = 21;
const SPACINGS = (process.env.CTL_PEER_SPACINGS ?? '20,10,5,2,1').split(',').map(Number);
const PULSES = Number(process.env.CTL_PEER_PULSES ?? 500);
const LATENCY_EDGES = Number(process.env.CTL_PEER_LATENCY_EDGES ?? 100);
const ROUND_TRIPS = Number(process.env.CTL_PEER_ROUND_TRIPS ?? 50);

interface Program {
  label: string;
  /** Starts the program on the lines; the broker on 127.0.0.1:port. */
  start(dir: string, chip: SimChip, port: number): ChildProcess;
  /** Topic and payloads of the input's level. */
  inputTopic: string;
  payload(high: boolean): string;
  /** Topic and payloads of an output command (undefined: no output in this run). */
  outputSet?: { topic: string; on: string; off: string };
  /** A counter's topic and how many pulses its value is (the meter variant). */
  counter?: { topic: string; pulses(value: string): number };
}

export interface ProgramResult {
  label: string;
  latencyMs: number[];
  trains: Array<{ spacingMs: number; driven: number; published: number }>;
  cpuMsPerEdge: number;
  rssMiB: number;
  roundTripMs: number[];
}

function ctlProgram(meter: boolean): Program {
  const id = meter ? 'peer-ctl-meter' : 'peer-ctl';
  const controls = `/devices/${id}/controls`;
  return {
    label: meter ? 'ctl-mqtt-gpio (watt_meter)' : 'ctl-mqtt-gpio (input)',
    start(dir, chip, port) {
      const channels = meter
        ? [{ name: 'M', gpio: { chip: chip.path, offset: IN }, direction: 'input', type: 'watt_meter', multiplier: 1000, edge: 'rising', debounce: 0 }]
        : [
            { name: 'IN', gpio: { chip: chip.path, offset: IN }, direction: 'input', debounce: 0 },
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
    inputTopic: meter ? `${controls}/M_total` : `${controls}/IN`,
    payload: (high) => (high ? '1' : '0'),
    ...(meter
      ? { counter: { topic: `${controls}/M_total`, pulses: (v: string) => Math.round(Number(v) * 1000) } }
      : { outputSet: { topic: `${controls}/OUT/on`, on: '1', off: '0' } }),
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
          'digital_outputs:',
          '  - name: out',
          '    module: sim',
          `    pin: ${OUT}`,
          '',
        ].join('\n'),
      );
      return spawn(python, ['-m', 'mqtt_io', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    },
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

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function measure(program: Program, port: number): Promise<ProgramResult> {
  const chip = simChip(CHIP);
  const dir = mkdtempSync(join(tmpdir(), 'peer-'));
  const line = puller(chip, IN);
  line.set(false);
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { protocolVersion: 5 });
  const messages: Array<{ topic: string; payload: string; at: number }> = [];
  client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString(), at: performance.now() }));
  await client.subscribeAsync([program.inputTopic, ...(program.counter ? [program.counter.topic] : [])]);
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
  try {
    await waitFor('first value', () => messages.some((m) => m.topic === program.inputTopic), 60_000);
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
        await waitFor('edge value', () => messages.slice(from).some((m) => m.topic === program.inputTopic && m.payload === want), 5000);
        latencyMs.push(messages.slice(from).find((m) => m.topic === program.inputTopic && m.payload === want)!.at - t0);
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
      const countBefore = program.counter ? lastCount() : 0;
      for (let i = 0; i < PULSES; i++) {
        line.set(true);
        await sleep(spacingMs);
        line.set(false);
        await sleep(spacingMs);
      }
      edges += 2 * PULSES;
      await sleep(2000);
      const published = program.counter
        ? lastCount() - countBefore
        : messages.slice(from).filter((m) => m.topic === program.inputTopic && m.payload === program.payload(true)).length;
      trains.push({ spacingMs, driven: PULSES, published });
    }
    const cpuMsPerEdge = (cpuMs(child.pid!) - cpuBefore) / edges;
    await sleep(2000);
    const rss = rssMiB(child.pid!);

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
    return { label: program.label, latencyMs, trains, cpuMsPerEdge, rssMiB: rss, roundTripMs };
  } finally {
    line.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once('exit', r)));
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
