/**
 * Whether the console inside the `ctl-mqtt` process started, read from the process's lines: it
 * says `listening on URL` once it listens; what it writes under its own name before that
 * (`ctl-mqtt-console: cannot listen on 127.0.0.1:8080: the port is taken`) is why it could not.
 * The demo waits for one or the other before it shows its screen: a console that cannot start
 * ends the demo with that one line (the process would try it again every few seconds, unseen).
 */
import { CtlError } from '../core/errors.js';

const LISTENING = /\[ctl:console\] listening on (\S+)/;
const OWN_ERROR = /^ctl-mqtt-console: (.*)$/;

export class ConsoleStart {
  private settle: { resolve: (url: string) => void; reject: (err: Error) => void } | undefined;
  /** The console's address, or why it did not start. */
  readonly url: Promise<string>;

  constructor() {
    this.url = new Promise<string>((resolve, reject) => (this.settle = { resolve, reject }));
    // Nobody may be waiting yet when the process fails: not an unhandled rejection.
    this.url.catch(() => undefined);
  }

  /** A line of the process. */
  line(line: string): void {
    const listening = LISTENING.exec(line);
    if (listening !== null) this.done(listening[1]!);
    const failed = OWN_ERROR.exec(line);
    if (failed !== null) this.fail(`web console: ${failed[1]!} (--console-port N picks another port)`);
  }

  /** The process ended (before the console started, that is the console's end too). */
  processEnded(): void {
    this.fail('web console: the ctl-mqtt process ended before the console started (see its lines above)');
  }

  private done(url: string): void {
    this.settle?.resolve(url);
    this.settle = undefined;
  }

  private fail(message: string): void {
    this.settle?.reject(new CtlError('RUNTIME', message));
    this.settle = undefined;
  }
}
