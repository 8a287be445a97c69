/**
 * A line held by another process (another daemon on the controller): a child node process
 * requests the line through the cdev backend under its own consumer name and keeps it until
 * released. The kernel then refuses the line to everyone else and names that consumer.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { TestContext } from 'node:test';

export interface HeldLine {
  /** Ends the holder process (the kernel frees the line) and waits for it. */
  release(): Promise<void>;
}

export async function holdLine(t: TestContext, chipPath: string, offset: number, consumer: string): Promise<HeldLine> {
  const backendUrl = new URL('../../src/hw/gpio/cdev/cdev-backend.js', import.meta.url);
  const timeUrl = new URL('../../src/core/time.js', import.meta.url);
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { createCdevBackend } = await import(${JSON.stringify(backendUrl.href)});
       const { systemTime } = await import(${JSON.stringify(timeUrl.href)});
       const chip = await createCdevBackend({ time: systemTime }).openChip(${JSON.stringify(chipPath)});
       await chip.requestLine({ consumer: ${JSON.stringify(consumer)}, line: { offset: ${offset}, direction: 'output', activeLow: false } });
       console.log('held');
       process.stdin.resume();
       process.stdin.on('end', () => process.exit(0));`,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = once(holder, 'exit');
  t.after(() => {
    holder.stdin.end();
    holder.kill();
  });
  const [chunk] = (await once(holder.stdout, 'data')) as [Buffer];
  if (chunk.toString().trim() !== 'held') throw new Error(`the line holder said ${chunk.toString()}`);
  return {
    async release() {
      holder.stdin.end();
      await exited;
    },
  };
}
