/**
 * Cleanups that run last-registered first, as resources are torn down in the reverse order of
 * their creation (node:test runs `t.after` hooks in registration order, so a service would still
 * be writing into a directory whose removal was registered before it).
 */
import type { TestContext } from 'node:test';

const stacks = new WeakMap<TestContext, Array<() => unknown>>();

export function deferCleanup(t: TestContext, cleanup: () => unknown): void {
  let stack = stacks.get(t);
  if (stack === undefined) {
    const created: Array<() => unknown> = [];
    stack = created;
    stacks.set(t, created);
    t.after(async () => {
      stacks.delete(t);
      let first: unknown;
      for (let fn = created.pop(); fn !== undefined; fn = created.pop()) {
        try {
          await fn();
        } catch (err) {
          first ??= err;
        }
      }
      if (first !== undefined) throw first;
    });
  }
  stack.push(cleanup);
}
