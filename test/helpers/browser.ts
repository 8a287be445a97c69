/**
 * A real browser for the console's tests: Debian's chromium, headless, driven by playwright-core
 * (no browser download: the system's binary). Each launch gets a fresh profile directory, removed
 * afterwards. Without chromium the tests skip and say so (`.ci/run` installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { recordPageCoverage } from './page-coverage.js';
import { eventually } from './wait-until.js';

export const CHROMIUM_PATH = process.env['CTL_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

export const skipWithoutChromium = existsSync(CHROMIUM_PATH)
  ? false
  : `${CHROMIUM_PATH} is not installed: browser tests skipped (apt-get install chromium, or run .ci/run)`;

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** `hostRules`: names the browser resolves to given addresses (`MAP controller.test 127.0.0.1`). */
export async function launchBrowser(options: { hostRules?: string } = {}): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'ctl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: options.hostRules === undefined ? ARGS : [...ARGS, `--host-resolver-rules=${options.hostRules}`],
    viewport: { width: 1200, height: 860 },
  });
  recordPageCoverage(context);
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Waits until the first element matching `selector` has this text (or input value); resolves with
 * it. Polled from here: the console's CSP forbids the string evaluation waitForFunction needs.
 */
export function pageShows(p: Page, selector: string, expected: string | RegExp, timeoutMs: number): Promise<string> {
  return eventually(
    `${selector} to show ${String(expected)}`,
    async () => {
      const el = p.locator(selector).first();
      if ((await el.count()) === 0) return undefined;
      const text = await el.evaluate(
        (e) => ('value' in e && typeof e.value === 'string' && e.tagName === 'INPUT' ? e.value : (e.textContent ?? '')) as string,
      );
      return (typeof expected === 'string' ? text === expected : expected.test(text)) ? text : undefined;
    },
    timeoutMs,
  );
}
