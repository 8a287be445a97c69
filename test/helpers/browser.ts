/**
 * A real browser for the console's tests: Debian's chromium, headless, driven by playwright-core
 * (no browser download: the system's binary). Each launch gets a fresh profile directory, removed
 * afterwards. Without chromium the tests skip and say so (`.ci/run` installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CTL_TEST_CHROMIUM'] ?? '/usr/bin/chromium';

export const skipWithoutChromium = existsSync(CHROMIUM_PATH) ? false : `${CHROMIUM_PATH} is not installed: browser tests skipped (apt-get install chromium, or run .ci/run)`;

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'];

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'ctl-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1200, height: 860 },
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
