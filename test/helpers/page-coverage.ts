/**
 * The console page's coverage in the browser tests: when the full run asks for it
 * (`CTL_PAGE_COVERAGE_DIR`, set by scripts/run-tests.mjs), every page of a test browser records
 * V8's block coverage of the scripts it runs (through CDP: page.coverage), and when the page
 * closes its record of the console's own scripts (`/assets/*.js`) is written to that directory as
 * one JSON file. scripts/page-coverage.mjs turns them into lines of the lcov report, so the page
 * is a floor of the coverage table like the server's code.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

const DIR = process.env['CTL_PAGE_COVERAGE_DIR'];
let written = 0;

/** Records coverage on every page of `context`, present and future (nothing without the variable). */
export function recordPageCoverage(context: BrowserContext): void {
  if (DIR === undefined || DIR === '') return;
  const dir = DIR;
  const watch = (page: Page): void => {
    // Started before the test's first navigation reaches the page: CDP keeps the order of commands.
    const started = page.coverage.startJSCoverage({ resetOnNavigation: false }).catch(() => false);
    const close = page.close.bind(page);
    // A page closed by its test is flushed first: its scripts' counts are gone once it is closed.
    page.close = async (options) => {
      await flush(page, started, dir);
      return close(options);
    };
    flushers.set(page, () => flush(page, started, dir));
  };
  const flushers = new Map<Page, () => Promise<void>>();
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
  const closeContext = context.close.bind(context);
  context.close = async (options) => {
    await Promise.all([...flushers.values()].map((f) => f()));
    return closeContext(options);
  };
}

const flushed = new WeakSet<Page>();

async function flush(page: Page, started: Promise<unknown>, dir: string): Promise<void> {
  if (flushed.has(page) || page.isClosed()) return;
  flushed.add(page);
  if ((await started) === false) return;
  const entries = await page.coverage.stopJSCoverage().catch(() => []);
  const own = entries.filter((e) => /^https?:\/\/[^/]+\/assets\/[\w-]+\.js$/.test(e.url));
  if (own.length === 0) return;
  written += 1;
  writeFileSync(join(dir, `page-${process.pid}-${written}.json`), JSON.stringify(own));
}
