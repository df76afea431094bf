/**
 * The asset library in real Chromium (Playwright, /usr/bin/chromium when present) on a folder of 100,025 assets
 * (the generated datasets' LISTING_FOLDER), with the browser's own clocks:
 *
 * - open: navigation start (a fresh tab, the HTTP cache warm after the first run) → the first painted frame with
 *   asset cards in the grid (a MutationObserver notes the first card, the next `requestAnimationFrame` after it);
 * - scroll: the grid scrolled by a fixed step every frame for a few seconds (about 2,400 px/s, paging in as it
 *   goes), the intervals between `requestAnimationFrame` callbacks, and the long tasks meanwhile;
 * - panel: Enter on a focused card (the keydown event's own time stamp) → the first frame painted with the
 *   asset's details (its facts) in the panel; Escape closes it, the next card is opened.
 *
 * Each figure is the median and p95 over every run (several page loads, several scroll passes, several assets).
 */
import { chromium, type Page } from '@playwright/test';
import fs from 'node:fs';
import { LISTING_FOLDER } from '../lib/dataset.js';
import { ADMIN_PASSWORD } from '../lib/paths.js';
import type { RunningProcess } from '../lib/server.js';

const SYSTEM_CHROMIUM = '/usr/bin/chromium';
const FOLDER_URL = `/${LISTING_FOLDER.map((s, i) => (i === 0 ? s.toLowerCase() : encodeURIComponent(s))).join('/')}`;
const CARD = '.library-grid .asset-card';

export interface Stats {
  n: number;
  median: number;
  p95: number;
  max: number;
}

export interface UiLibraryResult {
  folder: string;
  assets: number;
  /** Navigation start → first frame with cards, ms. */
  open: Stats;
  /** Intervals between animation frames while scrolling, ms; and what happened meanwhile. */
  scroll: Stats & { frames: number; longTasks: number; longTaskMs: number; scrolledPx: number };
  /** Enter on a card → first frame with its details, ms (and → the panel's frame, before its data). */
  panel: Stats & { frame: Stats };
  /** Long tasks during the opens (all runs). */
  openLongTasks: { count: number; totalMs: number; longestMs: number };
}

export function stats(values: number[]): Stats {
  const s = [...values].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  return { n: s.length, median: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? NaN };
}

/** In every document: long tasks, and the first frame with a card painted. */
const INIT = `(() => {
  window.__bench = { longTasks: [], firstCard: null };
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]); })
      .observe({ type: 'longtask', buffered: true });
  } catch {}
  const watch = () => {
    const mo = new MutationObserver(() => {
      if (window.__bench.firstCard === null && document.querySelector(${JSON.stringify(CARD)})) {
        window.__bench.firstCard = -1;
        mo.disconnect();
        requestAnimationFrame(() => { window.__bench.firstCard = performance.now(); });
      }
    });
    mo.observe(document, { childList: true, subtree: true });
  };
  watch();
})();`;

/**
 * One scroll pass (a script: code compiled by tsx would carry helpers the page lacks): from the top, 40 px a
 * frame for `ms`; answers the frame intervals, the long tasks meanwhile and how far it got.
 */
const scrollPass = (ms: number) => `new Promise((resolve, reject) => {
  const el = ${SCROLLER};
  if (!el) return reject(new Error('no scrolling element around the cards'));
  el.scrollTop = 0;
  const bench = window.__bench;
  const tasksBefore = bench.longTasks.length;
  const out = [];
  let last = 0;
  let start = 0;
  const step = (t) => {
    if (start === 0) start = t;
    else out.push(t - last);
    last = t;
    if (t - start >= ${ms}) return resolve({ intervals: out, tasks: bench.longTasks.slice(tasksBefore), px: el.scrollTop });
    el.scrollTop += 40;
    requestAnimationFrame(step);
  };
  requestAnimationFrame(() => requestAnimationFrame(step));
})`;

/** Notes the next Enter's time stamp, the first frame with the panel, and the first with the asset's facts. */
const ARM_PANEL_CLOCK = `(() => {
  const b = window.__bench;
  b.keydown = 0;
  b.frame = 0;
  b.details = 0;
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    b.keydown = e.timeStamp;
    const mo = new MutationObserver(() => {
      if (!b.frame && document.querySelector('.drawer')) {
        b.frame = -1;
        requestAnimationFrame(() => (b.frame = performance.now()));
      }
      if (!b.details && document.querySelector('.drawer .asset-facts')) {
        b.details = -1;
        mo.disconnect();
        requestAnimationFrame(() => (b.details = performance.now()));
      }
    });
    mo.observe(document.body, { childList: true, subtree: true });
  }, { capture: true, once: true });
})()`;

async function signIn(page: Page, baseUrl: string) {
  await page.goto(`${baseUrl}/sign-in`);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The element that scrolls the grid. */
const SCROLLER = `(() => {
  let el = document.querySelector(${JSON.stringify(CARD)});
  while (el && el !== document.body) {
    const s = getComputedStyle(el);
    if (/(auto|scroll)/.test(s.overflowY) && el.scrollHeight > el.clientHeight) return el;
    el = el.parentElement;
  }
  return null;
})()`;

export async function uiLibrarySuite(
  folio: RunningProcess,
  opts: { assets: number; openRuns: number; scrollRuns: number; scrollMs: number; panelRuns: number },
  log: (line: string) => void,
): Promise<UiLibraryResult> {
  const browser = await chromium.launch({
    ...(fs.existsSync(SYSTEM_CHROMIUM) ? { executablePath: SYSTEM_CHROMIUM } : {}),
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(INIT);
    const first = await context.newPage();
    await signIn(first, folio.url);
    await first.close();

    // Open: a fresh tab each time.
    const opens: number[] = [];
    const openTasks: number[] = [];
    for (let i = 0; i <= opts.openRuns; i++) {
      const page = await context.newPage();
      await page.goto(`${folio.url}${FOLDER_URL}`);
      await page.waitForFunction(
        () => (window as unknown as { __bench: { firstCard: number } }).__bench.firstCard > 0,
        null,
        {
          timeout: 60_000,
        },
      );
      const { firstCard, longTasks } = await page.evaluate(
        () => (window as unknown as { __bench: { firstCard: number; longTasks: [number, number][] } }).__bench,
      );
      // The first load fills the HTTP cache and compiles nothing twice: a warm-up, not a figure.
      if (i > 0) {
        opens.push(firstCard);
        openTasks.push(...longTasks.filter(([start]) => start <= firstCard).map(([, d]) => d));
      }
      await page.close();
    }
    const open = stats(opens);
    log(`  open ${FOLDER_URL}: median ${open.median.toFixed(0)} ms, p95 ${open.p95.toFixed(0)} ms (${open.n} runs)`);

    // Scroll: one tab, several passes from the top.
    const page = await context.newPage();
    await page.goto(`${folio.url}${FOLDER_URL}`);
    await page.locator(CARD).first().waitFor();
    const intervals: number[] = [];
    let longTasks = 0;
    let longTaskMs = 0;
    let scrolledPx = 0;
    for (let r = 0; r < opts.scrollRuns; r++) {
      const res = (await page.evaluate(scrollPass(opts.scrollMs))) as {
        intervals: number[];
        tasks: [number, number][];
        px: number;
      };
      intervals.push(...res.intervals);
      longTasks += res.tasks.length;
      longTaskMs += res.tasks.reduce((s, [, d]) => s + d, 0);
      scrolledPx += res.px;
    }
    const scroll = {
      ...stats(intervals),
      frames: intervals.length,
      longTasks,
      longTaskMs: Math.round(longTaskMs),
      scrolledPx: Math.round(scrolledPx / opts.scrollRuns),
    };
    log(
      `  scroll: frame interval median ${scroll.median.toFixed(1)} ms, p95 ${scroll.p95.toFixed(1)} ms, max ${scroll.max.toFixed(0)} ms;` +
        ` ${scroll.frames} frames, ${longTasks} long tasks (${scroll.longTaskMs} ms)`,
    );

    // Panel: Enter on a card (a different one each time, its data not yet read), then Escape.
    const panel: number[] = [];
    const panelFrame: number[] = [];
    const opened = new Set<string>();
    for (let i = 0; i < opts.panelRuns; i++) {
      // Further down each time (only the cards in view are rendered), a card whose details were not read yet;
      // then a pause, so that the scroll has settled before the clock starts.
      await page.evaluate(`(${SCROLLER}).scrollTop = ${i * 250}`);
      await page.waitForTimeout(500);
      const paths = await page.locator(CARD).evaluateAll((els) => els.map((e) => e.getAttribute('data-path') ?? ''));
      const path = paths.find((p) => p && !opened.has(p));
      if (!path) throw new Error('no card left to open');
      opened.add(path);
      const card = page.locator(`${CARD}[data-path="${path}"]`);
      await card.focus();
      await page.evaluate(ARM_PANEL_CLOCK);
      await page.keyboard.press('Enter');
      await page.waitForFunction(
        () => (window as unknown as { __bench: { details: number } }).__bench.details > 0,
        null,
        {
          timeout: 30_000,
        },
      );
      const b = await page.evaluate(() => (window as unknown as { __bench: Record<string, number> }).__bench);
      panel.push(b.details! - b.keydown!);
      panelFrame.push(b.frame! - b.keydown!);
      await page.keyboard.press('Escape');
      await page.locator('.drawer').waitFor({ state: 'detached' });
    }
    const panelStats = { ...stats(panel), frame: stats(panelFrame) };
    log(
      `  panel: details median ${panelStats.median.toFixed(0)} ms, p95 ${panelStats.p95.toFixed(0)} ms` +
        ` (panel frame ${panelStats.frame.median.toFixed(0)} / ${panelStats.frame.p95.toFixed(0)} ms)`,
    );
    return {
      folder: FOLDER_URL,
      assets: opts.assets,
      open,
      scroll,
      panel: panelStats,
      openLongTasks: {
        count: openTasks.length,
        totalMs: Math.round(openTasks.reduce((s, d) => s + d, 0)),
        longestMs: Math.round(Math.max(0, ...openTasks)),
      },
    };
  } finally {
    await browser.close();
  }
}
