/**
 * A service's lines in the journal as its own unit's (cli/host/journal-lines.ts): the native
 * protocol's fields, sent on a Unix datagram socket (a receiver of the test's own stands in for
 * journald's), and stderr when there is no journal.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { journalEntry, serviceStderr } from '../../../../src/cli/host/journal-lines.js';
import { notifyReceiverMissing, startNotifyReceiver } from '../../../helpers/notify-receiver.js';
import { waitUntil } from '../../../helpers/wait-until.js';

test('a log line becomes MESSAGE, its priority, the identifier and the unit journalctl -u matches', () => {
  assert.equal(
    journalEntry('WARNING: [ctl:gpio] cannot connect', 'ctl-mqtt-gpio.service', 'ctl-mqtt-gpio'),
    'MESSAGE=WARNING: [ctl:gpio] cannot connect\nPRIORITY=4\nSYSLOG_IDENTIFIER=ctl-mqtt-gpio\nOBJECT_SYSTEMD_UNIT=ctl-mqtt-gpio.service\n',
  );
  assert.match(journalEntry('INFO: x', 'u', 'i'), /^PRIORITY=6$/m);
  assert.match(journalEntry('/etc/ctl-mqtt-gpio.conf:3:5: channels[0].name: must be ...', 'u', 'i'), /^PRIORITY=3$/m);
});

test('with JOURNAL_STREAM, whole lines go to the journal socket; without it, to stderr as they are', async (t) => {
  const missing = notifyReceiverMissing();
  if (missing) return t.skip(missing);
  const dir = mkdtempSync(join(tmpdir(), 'ctl-journal-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const journal = await startNotifyReceiver(t, dir);
  const written: string[] = [];
  const stderr = { write: (text: string) => written.push(text) };
  const sink = serviceStderr(stderr, { JOURNAL_STREAM: '8:1234' }, 'ctl-mqtt-adc.service', 'ctl-mqtt-adc', journal.socket);
  sink.write('INFO: [ctl:adc] 10 channel(s)\nERROR: [ctl:adc] half');
  sink.write(' a line\n');
  await waitUntil(() => journal.received.length >= 2, 'two entries', { timeoutMs: 5000 });
  assert.deepEqual(
    journal.received.map((r) => r.message.split('\n')[0]),
    ['MESSAGE=INFO: [ctl:adc] 10 channel(s)', 'MESSAGE=ERROR: [ctl:adc] half a line'],
  );
  assert.deepEqual(written, []);
  // No journal socket there: the line is not lost.
  const noJournal = serviceStderr(stderr, { JOURNAL_STREAM: '8:1234' }, 'u.service', 'u', join(dir, 'none.sock'));
  noJournal.write('INFO: still here\n');
  assert.deepEqual(written, ['INFO: still here\n']);
  // Not under systemd: stderr itself.
  assert.equal(serviceStderr(stderr, {}, 'u.service', 'u', journal.socket), stderr);
});
