/**
 * The console page's coverage in the browser tests: when the full run asks for it
 * (`CTL_PAGE_COVERAGE_DIR`, set by scripts/run-tests.mjs), every page of a test browser records
 * V8's block coverage of the scripts it runs (over CDP: Profiler.startPreciseCoverage), and when
 * the page or its browser closes, the counts of the console's own scripts (`/assets/*.js`) are
 * written to that directory as one JSON file. scripts/page-coverage.mjs turns them into lines of
 * the lcov report, so the page is a floor of the coverage table like the server's code.
 *
 * A document's counts are gone with it, and the page navigates often (a login, a reload, a
 * language switch): they are taken (and V8's counters reset) before each navigation of the test's
 * (page.goto, page.reload), as the page asks for one of its own (a race it mostly wins: the last
 * moments before a redirect may go uncounted), and once more at the end. Each take holds the
 * counts since the one before; scripts/page-coverage.mjs sums them.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';

const DIR = process.env['CTL_PAGE_COVERAGE_DIR'];
/** The console's own scripts, by their URL. */
const OWN_SCRIPT = /^https?:\/\/[^/]+\/assets\/[\w-]+\.js$/;
let written = 0;

interface ScriptCoverage {
  readonly url: string;
  readonly functions: unknown[];
}

/** Records coverage on every page of `context`, present and future (nothing without the variable). */
export function recordPageCoverage(context: BrowserContext): void {
  if (DIR === undefined || DIR === '') return;
  const dir = DIR;
  const recorders = new Set<PageRecorder>();
  const watch = (page: Page): void => {
    const recorder = new PageRecorder(context, page, dir);
    recorders.add(recorder);
    // A navigation of the test's waits until recording runs (else the first scripts go uncounted),
    // and takes the counts of the document it leaves first.
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      await recorder.takeNow();
      return goto(url, options);
    };
    const reload = page.reload.bind(page);
    page.reload = async (options) => {
      await recorder.takeNow();
      return reload(options);
    };
    // A page closed by its test is written first: its counts are gone once it is closed.
    const close = page.close.bind(page);
    page.close = async (options) => {
      await recorder.finish();
      return close(options);
    };
  };
  for (const page of context.pages()) watch(page);
  context.on('page', watch);
  const closeContext = context.close.bind(context);
  context.close = async (options) => {
    await Promise.all([...recorders].map((r) => r.finish()));
    return closeContext(options);
  };
}

class PageRecorder {
  readonly started: Promise<CDPSession | undefined>;
  private readonly taken: ScriptCoverage[] = [];
  private takes: Promise<void> = Promise.resolve();
  private finished = false;

  constructor(
    context: BrowserContext,
    private readonly page: Page,
    private readonly dir: string,
  ) {
    this.started = this.start(context).catch(() => undefined);
  }

  private async start(context: BrowserContext): Promise<CDPSession> {
    const session = await context.newCDPSession(this.page);
    await session.send('Profiler.enable');
    await session.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    await session.send('Page.enable');
    // A navigation the page makes itself (a login's redirect, a reload, the language switch): taken
    // as it is asked for, which mostly comes before the new document resets the counts.
    session.on('Page.frameRequestedNavigation', () => void this.take(session));
    return session;
  }

  /** Adds the counts since the last take (one at a time: each take resets V8's counters). */
  private take(session: CDPSession): Promise<void> {
    this.takes = this.takes.then(async () => {
      const coverage = await session.send('Profiler.takePreciseCoverage').catch(() => undefined);
      for (const script of coverage?.result ?? []) if (OWN_SCRIPT.test(script.url)) this.taken.push(script);
    });
    return this.takes;
  }

  /** Takes the counts so far (once recording runs). */
  async takeNow(): Promise<void> {
    const session = await this.started;
    if (session !== undefined && !this.page.isClosed()) await this.take(session);
  }

  /** The last take, and the file of all of them. */
  async finish(): Promise<void> {
    if (this.finished) return;
    this.finished = true;
    const session = await this.started;
    if (session !== undefined && !this.page.isClosed()) await this.take(session);
    else await this.takes;
    if (this.taken.length === 0) return;
    written += 1;
    writeFileSync(join(this.dir, `page-${process.pid}-${written}.json`), JSON.stringify(this.taken));
  }
}
