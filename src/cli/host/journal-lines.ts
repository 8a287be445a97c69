/**
 * Each service's log lines in the journal as its own unit's, in the one process: systemd puts every
 * line the process writes on stderr under ctl-mqtt.service, so `journalctl -u ctl-mqtt-gpio` would
 * show nothing. Where the process's stderr goes to the journal (`JOURNAL_STREAM` set), a service's
 * lines are sent instead through the journal's native socket, one datagram each, with
 * `OBJECT_SYSTEMD_UNIT=<service>.service`: journalctl -u and systemctl status of a unit show the
 * lines a root process sends about it (the "authorized daemons" match, `_UID=0`), and the journal
 * still files them under ctl-mqtt.service too, by the sender's cgroup. A line the socket does not
 * take (no journal, a full queue, another user than root) goes to stderr as before.
 */
import { openNotifySocket, type NotifySender } from '../../hw/systemd/notify-socket.js';

export const JOURNAL_SOCKET = '/run/systemd/journal/socket';

/** syslog priorities of the logger's prefixes (core/log.ts); a line without one is a problem line. */
const PRIORITY: readonly [string, number][] = [
  ['ERROR: ', 3],
  ['WARNING: ', 4],
  ['INFO: ', 6],
  ['DEBUG: ', 7],
];

/** The native protocol's fields of one log line (newlines cannot be in a value written this way). */
export function journalEntry(line: string, unit: string, identifier: string): string {
  const priority = PRIORITY.find(([prefix]) => line.startsWith(prefix))?.[1] ?? 3;
  const message = line.replace(/[\r\n]+/g, ' ');
  return `MESSAGE=${message}\nPRIORITY=${priority}\nSYSLOG_IDENTIFIER=${identifier}\nOBJECT_SYSTEMD_UNIT=${unit}\n`;
}

export interface LineSink {
  write(text: string): unknown;
}

/**
 * A stderr for one service: its lines to the journal as `unit`'s when `env` says stderr is the
 * journal, else `stderr` itself. `socketPath` is the journal's (tests give a socket of their own).
 */
export function serviceStderr(
  stderr: LineSink,
  env: Readonly<Record<string, string | undefined>>,
  unit: string,
  identifier: string,
  socketPath = JOURNAL_SOCKET,
): LineSink {
  if (!env['JOURNAL_STREAM']) return stderr;
  let socket: NotifySender | undefined;
  try {
    socket = openNotifySocket(socketPath);
  } catch {
    return stderr;
  }
  let pending = '';
  return {
    write(text: string) {
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line === '') continue;
        if (!socket!.send(journalEntry(line, unit, identifier))) stderr.write(line + '\n');
      }
      return true;
    },
  };
}
