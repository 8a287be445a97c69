/**
 * Reads the new password for `--set-password`: the first line of stdin when it is piped
 * (`echo secret | ctl-mqtt-console --set-password`), else typed at the terminal twice without
 * echo.
 */
import { CtlError } from '../../core/errors.js';

/** Reads one line from a terminal in raw mode, showing nothing. */
function readHidden(prompt: string, out: { write(text: string): unknown }): Promise<string> {
  const stdin = process.stdin;
  out.write(prompt);
  stdin.setRawMode(true);
  stdin.resume();
  return new Promise((resolve, reject) => {
    let line = '';
    const done = (err?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      out.write('\n');
      if (err) reject(err);
      else resolve(line);
    };
    const onData = (chunk: Buffer): void => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003' || ch === '\u0004') return done(new CtlError('USAGE', 'no password entered'));
        if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
        else line += ch;
      }
    };
    stdin.on('data', onData);
  });
}

export async function promptNewPassword(
  isTTY: boolean,
  readStdin: () => Promise<string>,
  out: { write(text: string): unknown },
): Promise<string> {
  if (!isTTY) {
    const first = (await readStdin()).split('\n')[0]!.replace(/\r$/, '');
    if (first === '') throw new CtlError('USAGE', 'no password on stdin (give it as the first line)');
    return first;
  }
  const password = await readHidden('New console password: ', out);
  const again = await readHidden('Again: ', out);
  if (password !== again) throw new CtlError('USAGE', 'the two passwords differ; nothing changed');
  return password;
}
