/**
 * `npm start`: the one-command demo (see demo-run.ts). Ctrl-C, SIGTERM or SIGHUP stop it in
 * order; a second Ctrl-C more than a second later forces the exit (a copy of the first one,
 * which npm forwards to its script right after the terminal sent it, is not a second request).
 */
import { isMainModule } from '../service/is-main.js';
import { ConfigError, CtlError, messageOf } from '../core/errors.js';
import { DEMO_COMMAND, DEMO_USAGE, parseDemoArgs } from './demo-args.js';
import { runDemo, type DemoIo } from './demo-run.js';

const NAME = 'ctl-mqtt demo';
const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
/** Signals within this time of the first are the same request (npm forwards what the tty sent). */
const REPEAT_GRACE_MS = 1000;

/** Runs the demo with these arguments; resolves to the exit code. */
export async function main(argv: readonly string[], io: DemoIo, stop: AbortSignal): Promise<number> {
  try {
    const options = parseDemoArgs(argv);
    if (options.help) {
      io.stdout.write(DEMO_USAGE);
      return 0;
    }
    return await runDemo(options, io, stop);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.stderr.write(err.problems.join('\n') + '\n');
      return 6;
    }
    if (err instanceof CtlError && err.code === 'USAGE') {
      io.stderr.write(`${NAME}: ${err.message}\nTry '${DEMO_COMMAND} --help'.\n`);
      return 2;
    }
    const prefix = err instanceof CtlError ? '' : 'internal error: ';
    io.stderr.write(`${NAME}: ${prefix}${messageOf(err).split('\n')[0]}\n`);
    return 1;
  }
}

function stopOnSignals(): AbortSignal {
  const controller = new AbortController();
  let firstAt = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!controller.signal.aborted) {
      firstAt = Date.now();
      controller.abort(signal === 'SIGINT' ? 'Ctrl-C' : signal);
    } else if (Date.now() - firstAt > REPEAT_GRACE_MS) {
      process.stderr.write(`${NAME}: ${signal} again: exiting now, without waiting for the services\n`);
      process.exit(130);
    }
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return controller.signal;
}

if (isMainModule(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }, stopOnSignals());
}
