import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceViewModel } from '../../../src/console/devices/device-view-model.js';
import { LiveView, type ViewOutput } from '../../../src/demo/live-view.js';
import { ManualTime } from '../../helpers/manual-time.js';

class FakeTerminal implements ViewOutput {
  readonly writes: string[] = [];
  constructor(
    readonly isTTY: boolean,
    readonly columns = 60,
    readonly rows = 30,
  ) {}
  write(text: string): boolean {
    this.writes.push(text);
    return true;
  }
}

function model(): DeviceViewModel {
  const m = new DeviceViewModel();
  m.apply('/devices/ctl-adc/meta', '{"title":{"en":"ADCs"}}');
  m.apply('/devices/ctl-adc/controls/Vin/meta', '{"order":1,"readonly":true,"type":"voltage","units":"V"}');
  m.apply('/devices/ctl-adc/controls/Vin', '24.0');
  return m;
}

const ESC = '\x1b[';

test('TTY: frames redraw in place, fit the width, and at most every 250 ms', async () => {
  const out = new FakeTerminal(true, 50);
  const m = model();
  const time = new ManualTime();
  const view = new LiveView({
    out,
    model: m,
    header: ['broker mqtt://127.0.0.1:1883 and a very long hint line that must be cut'],
    status: () => ['service running'],
    time,
  });
  view.start();
  const first = out.writes.join('');
  assert.ok(first.startsWith(`${ESC}?25l`), 'cursor hidden');
  assert.doesNotMatch(first, new RegExp(`${ESC.replace('[', '\\[')}\\d+A`), 'the first frame does not move up');
  const lines = first.split('\n').slice(0, -1);
  assert.ok(lines.some((l) => l.includes('Vin') && l.includes('24.0 V')));
  for (const line of lines) assert.ok([...line.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')].length <= 50, line);

  out.writes.length = 0;
  for (let i = 0; i < 20; i++) {
    m.apply('/devices/ctl-adc/controls/Vin', `24.${i}`);
    view.changed();
  }
  await time.advance(249);
  assert.equal(out.writes.length, 0, 'not within 250 ms of the last frame');
  await time.advance(1);
  const frames = out.writes.filter((w) => w.includes('Vin'));
  assert.equal(frames.length, 1, `${frames.length} frames for 20 changes`);
  assert.ok(frames.at(-1)!.startsWith(`${ESC}${lines.length}A\r`), 'moves up over the previous frame');
  assert.match(frames.at(-1)!, /24\.19 V/);

  view.log('gpio: WARNING: something');
  await time.advance(250);
  assert.match(out.writes.at(-1)!, /Recent log:\n.*gpio: WARNING: something/);
  view.stop();
  assert.ok(out.writes.at(-1)!.endsWith(`${ESC}?25h`), 'cursor shown again');
});

test('not a TTY: no escape codes; header, log lines as they come, compact lines', async () => {
  const out = new FakeTerminal(false);
  const time = new ManualTime();
  const view = new LiveView({ out, model: model(), header: ['hint'], status: () => [], summaryEveryS: 0.1, time });
  view.start();
  view.log('adc: INFO: started');
  await time.advance(250);
  view.stop();
  assert.equal(out.writes.filter((w) => w.includes('ADCs')).length, 3, 'at 100 and 200 ms, and at the stop');
  const text = out.writes.join('');
  assert.doesNotMatch(text, /\x1b/);
  assert.match(text, /^hint\nadc: INFO: started\n\[0:00\] ADCs: Vin=24\.0 V\n/);
  assert.match(text, /\[0:00\] ADCs: Vin=24\.0 V\n$/);
});

test('TTY: a frame never gets taller than the screen; the log gives way before the devices', () => {
  const m = model();
  for (let i = 0; i < 30; i++) {
    m.apply(`/devices/ctl-gpio/controls/IN${i}/meta`, `{"order":${i + 1},"readonly":true,"type":"switch"}`);
    m.apply(`/devices/ctl-gpio/controls/IN${i}`, '1');
  }
  const frameLines = (rows: number): string[] => {
    const out = new FakeTerminal(true, 40, rows);
    const view = new LiveView({ out, model: m, header: ['title', 'hint'], status: () => ['svc running'] });
    view.start();
    for (let i = 0; i < 4; i++) view.log(`log ${i}`);
    view.stop();
    const last = out.writes.filter((w) => w.includes('title')).at(-1)!;
    return last
      .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
      .replace(/^\r/, '')
      .split('\n')
      .slice(0, -1);
  };
  const small = frameLines(12);
  assert.equal(small.length, 11);
  assert.ok(small.some((l) => /more lines \(enlarge the window\)/.test(l)));
  assert.ok(!small.includes('Recent log:'));
  assert.ok(small.includes('svc running'));
  const tall = frameLines(60);
  assert.ok(tall.includes('Recent log:') && tall.includes('  log 3'));
  assert.ok(!tall.some((l) => /more lines/.test(l)));
});
