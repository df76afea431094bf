import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN_BASIC, ADMIN_PASSWORD } from '../lib/paths.js';
import { startFolio, type RunningProcess } from '../lib/server.js';

/**
 * The page editor in real Chromium (issue 37): pages of 50 and 200 widgets made through the API on the built
 * server (demo seed: the `two-column` template and the logo image), each opened in a fresh browser context several
 * times. Every figure comes from the browser's own clocks: event timestamps, `performance.now()` in a
 * MutationObserver and focus listeners, the next `requestAnimationFrame` (the frame that shows it), and long tasks
 * from a PerformanceObserver.
 */

export interface Stat {
  median: number;
  p95: number;
  n: number;
}

export interface UiEditorCase {
  widgets: number;
  runs: number;
  /** Navigation start → the first widget's editor holds the focus after a click on its text (as soon as shown). */
  firstEditable: Stat;
  /** Navigation start → every widget's content is in the page (text of each, the raw HTML, the image decoded). */
  allContent: Stat;
  /** Keydown → the editor's DOM changed, 60 characters into the widget near the end; and → the next frame. */
  typing: Stat;
  typingFrame: Stat;
  /** Long tasks (> 50 ms) while typing, per run; DOM changes outside the widget typed in, per keystroke. */
  typingLongTasks: Stat;
  mutationsElsewherePerKey: Stat;
  /** Frame times (rAF to rAF) while typing. */
  frames: Stat;
  /** Mousedown on a widget's text → its editor focused, and the frame after. */
  focus: Stat;
  /** Mousedown on the palette's "Rich text" → the new widget's editor focused, and the frame after. */
  paletteInsert: Stat;
  /** Keydown → DOM changed for the 40 keystrokes typed after Ctrl+S started a save. */
  typingDuringSave: Stat;
}

export interface UiEditorResult {
  cases: UiEditorCase[];
}

const TEMPLATE = 'two-column';
const REGION = 'main';
const FOLDER = 'demo/bench-ui';
const TYPED = 'The quick brown fox jumps over the lazy dog, again and again.'.slice(0, 60);

/** The text every widget shows, findable by its number: `[w07]`. */
const marker = (n: number) => `[w${String(n).padStart(2, '0')}]`;
const RAW_AT = 25;
const IMAGE_AT = 26;

function widgetsOf(count: number) {
  const widgets = [];
  for (let n = 1; n <= count; n++) {
    if (n === RAW_AT) {
      widgets.push({
        type: 'cmsRawHtml',
        asset: { fields: { html: `<div class="promo"><strong>${marker(n)} Raw HTML</strong> written by hand.</div>` } },
      });
    } else if (n === IMAGE_AT) {
      widgets.push({ type: 'cmsImage', asset: { name: 'logo.png', folderPath: 'Assets/images' } });
    } else {
      const text =
        `<p>${marker(n)} Editors feel the speed of the app every minute: a long page opens, they read it, ` +
        `they <strong>change a sentence</strong> and <em>save</em>, and nothing should stand in their way.</p>`;
      widgets.push({ type: 'cmsRichText', asset: { fields: { text } } });
    }
  }
  return widgets;
}

const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]! : NaN;

export function statOf(values: number[]): Stat {
  const s = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return { median: quantile(s, 0.5), p95: quantile(s, 0.95), n: s.length };
}

/** Instruments every document of a context (runs before the app's scripts). */
function instrument(expected: { count: number; raw: string; image: number }) {
  type Key = { t: number; dom?: number; frame?: number; afterSave: boolean };
  const b = {
    longTasks: [] as { start: number; duration: number }[],
    frames: [] as { at: number; delta: number }[],
    keys: [] as Key[],
    mutationsElsewhere: 0,
    firstContentEditable: NaN,
    allContent: NaN,
    lastDown: NaN,
    focused: [] as { down: number; at: number; frame?: number; card: string | null }[],
    saveStarted: false,
  };
  (window as unknown as { __bench: typeof b }).__bench = b;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) b.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  const tick = (now: number) => {
    b.frames.push({ at: now, delta: now - last });
    last = now;
    if (Number.isNaN(b.allContent) && contentShown()) {
      b.allContent = performance.now();
      performance.mark('bench:all-content');
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  function contentShown(): boolean {
    const cards = document.querySelectorAll('.regions .widget-card');
    if (cards.length < expected.count) return false;
    for (let i = 0; i < expected.count; i++) {
      const card = cards[i]!;
      const n = i + 1;
      if (n === expected.image) {
        const img = card.querySelector('img');
        if (!img || !img.complete || img.naturalWidth === 0) return false;
      } else if (!(card.textContent ?? '').includes(`[w${String(n).padStart(2, '0')}]`)) return false;
    }
    return true;
  }

  const editableOf = (node: Node | null) =>
    (node instanceof Element ? node : node?.parentElement)?.closest('[contenteditable="true"]') ?? null;
  const pending: Key[] = [];
  document.addEventListener(
    'keydown',
    (e) => {
      if (e.key === 's' && (e.ctrlKey || e.metaKey)) {
        b.saveStarted = true;
        return;
      }
      if (e.key.length !== 1 || !editableOf(document.activeElement)) return;
      const k: Key = { t: e.timeStamp, afterSave: b.saveStarted };
      b.keys.push(k);
      pending.push(k);
    },
    true,
  );
  document.addEventListener('mousedown', (e) => (b.lastDown = e.timeStamp), true);
  document.addEventListener('focusin', (e) => {
    const target = e.target as Element;
    if (!(target instanceof HTMLElement) || !target.isContentEditable || Number.isNaN(b.lastDown)) return;
    const entry = {
      down: b.lastDown,
      at: performance.now(),
      card: target.closest('.widget-card')?.getAttribute('data-widget-key') ?? null,
    } as (typeof b.focused)[number];
    b.lastDown = NaN;
    b.focused.push(entry);
    requestAnimationFrame(() => (entry.frame = performance.now()));
  });
  new MutationObserver((records) => {
    const now = performance.now();
    if (Number.isNaN(b.firstContentEditable) && document.querySelector('.regions [contenteditable="true"]')) {
      b.firstContentEditable = now;
    }
    const active = editableOf(document.activeElement);
    const card = active?.closest('.widget-card') ?? null;
    let inside = false;
    for (const r of records) {
      if (active && active.contains(r.target)) inside = true;
      else if (pending.length && !(card && card.contains(r.target))) b.mutationsElsewhere++;
    }
    if (inside && pending.length) {
      const done = pending.splice(0);
      for (const k of done) k.dom = now;
      requestAnimationFrame(() => {
        const f = performance.now();
        for (const k of done) k.frame = f;
      });
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

interface PageState {
  longTasks: { start: number; duration: number }[];
  frames: { at: number; delta: number }[];
  keys: { t: number; dom?: number; frame?: number; afterSave: boolean }[];
  mutationsElsewhere: number;
  firstContentEditable: number;
  allContent: number;
  focused: { down: number; at: number; frame?: number; card: string | null }[];
}

const state = (page: Page) => page.evaluate(() => (window as unknown as { __bench: PageState }).__bench);

/** The text of widget `n` inside the regions (never the outline's excerpt of it). */
const textOf = (page: Page, n: number) => page.locator('.regions').getByText(marker(n)).first();

export async function putPage(server: RunningProcess, name: string, count: number) {
  const res = await fetch(`${server.url}/cms/rest/pages/by-path/${FOLDER}/${name}`, {
    method: 'PUT',
    headers: { authorization: ADMIN_BASIC, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
    body: JSON.stringify({
      templateName: TEMPLATE,
      displayName: `Bench ${count} widgets`,
      body: [{ name: REGION, type: 'PAGE', widgets: widgetsOf(count) }],
    }),
  });
  if (!res.ok) throw new Error(`PUT page ${name}: ${res.status} ${await res.text()}`);
}

export async function signIn(browser: Browser, url: string, file: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel('Username').fill('admin');
  await page.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await context.storageState({ path: file });
  await context.close();
}

interface RunFigures {
  firstEditable: number;
  allContent: number;
  typing: number[];
  typingFrame: number[];
  typingLongTasks: number;
  mutationsElsewherePerKey: number;
  frames: number[];
  focus: number[];
  paletteInsert: number[];
  typingDuringSave: number[];
}

/** One fresh tab on the page: open, focus, type, type during a save, insert from the palette. */
async function oneRun(context: BrowserContext, url: string, count: number): Promise<RunFigures> {
  const page = await context.newPage();
  // A loaded 2-core machine can take long over a 200-widget page before the levers.
  page.setDefaultTimeout(240_000);
  // As source text: tsx (esbuild, keepNames) wraps named functions in a `__name` helper the page does not have.
  const arg = JSON.stringify({ count, raw: marker(RAW_AT), image: IMAGE_AT });
  await page.addInitScript({ content: `var __name = (f) => f; (${instrument.toString()})(${arg});` });
  await page.goto(url, { waitUntil: 'commit' });
  // As soon as the first widget's text shows, click it: navigation → an editor that takes typing.
  await textOf(page, 1).click();
  await page.waitForFunction(() => (window as unknown as { __bench: PageState }).__bench.focused.length > 0);
  await page.waitForFunction(
    () => !Number.isNaN((window as unknown as { __bench: PageState }).__bench.allContent),
    undefined,
    { timeout: 240_000 },
  );
  const opened = await state(page);
  const firstEditable = opened.focused[0]!.at;
  const focus: number[] = [];
  const focusAt = async (n: number) => {
    const before = (await state(page)).focused.length;
    await textOf(page, n).click();
    await page.waitForFunction((k) => {
      const f = (window as unknown as { __bench: PageState }).__bench.focused;
      return f.length > k && f[f.length - 1]!.frame !== undefined;
    }, before);
    const f = (await state(page)).focused.at(-1)!;
    focus.push(f.frame! - f.down);
  };
  // Focus a few widgets (selecting one after another), the last being the one typed in.
  const target = count >= 200 ? 190 : 48;
  for (const n of [5, 12, 30, target]) await focusAt(n);
  await page.keyboard.press('End');
  await page.waitForTimeout(300);
  const typingStart = await page.evaluate(() => performance.now());
  await page.keyboard.type(TYPED, { delay: 50 });
  await page.waitForTimeout(300);
  const typingEnd = await page.evaluate(() => performance.now());
  const typed = await state(page);
  const keys = typed.keys.filter((k) => !k.afterSave);
  const typing = keys.map((k) => (k.dom ?? NaN) - k.t);
  const typingFrame = keys.map((k) => (k.frame ?? NaN) - k.t);
  const within = (at: number) => at >= typingStart && at <= typingEnd;
  const typingLongTasks = typed.longTasks.filter((l) => within(l.start)).length;
  const frames = typed.frames.filter((f) => within(f.at)).map((f) => f.delta);
  const mutationsElsewherePerKey = typed.mutationsElsewhere / Math.max(1, keys.length);

  // Typing on while a save runs.
  await page.keyboard.type(' Saving', { delay: 50 });
  await page.keyboard.press('Control+s');
  await page.keyboard.type(' while typing goes on, without a stop in between!'.slice(0, 40), { delay: 50 });
  await page.waitForTimeout(300);
  const typingDuringSave = (await state(page)).keys.filter((k) => k.afterSave).map((k) => (k.dom ?? NaN) - k.t);
  await page
    .getByText(/Saving…|unsaved change|All changes saved/)
    .first()
    .waitFor();

  // Insert a rich text from the palette.
  await page.getByRole('button', { name: `Add widget to ${REGION}` }).click();
  const palette = page.getByRole('dialog', { name: `Add a widget to “${REGION}”` });
  await palette.getByRole('searchbox', { name: 'Find a widget type' }).fill('Rich text');
  const beforeInsert = (await state(page)).focused.length;
  await palette.getByRole('option', { name: 'Rich text', exact: true }).click();
  await page.waitForFunction(
    (k) => {
      const f = (window as unknown as { __bench: PageState }).__bench.focused;
      return f.length > k && f[f.length - 1]!.frame !== undefined;
    },
    beforeInsert,
    { timeout: 240_000 },
  );
  const inserted = (await state(page)).focused.at(-1)!;
  await page.close();
  return {
    firstEditable,
    allContent: opened.allContent,
    typing,
    typingFrame,
    typingLongTasks,
    mutationsElsewherePerKey,
    frames,
    focus,
    paletteInsert: [inserted.frame! - inserted.down],
    typingDuringSave,
  };
}

export async function uiEditorSuite(
  opts: { runs: number; sizes?: number[]; webDir?: string },
  log: (line: string) => void,
): Promise<UiEditorResult> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-bench-ui-'));
  // `webDir`: another build of the SPA (a before/after pair in one session; `--ui-web <dir>`).
  const env = { CMS_SEED: 'true', ...(opts.webDir ? { CMS_WEB_DIR: opts.webDir } : {}) };
  const server = await startFolio({ dataDir, env });
  const browser = await chromium.launch({
    ...(fs.existsSync('/usr/bin/chromium') ? { executablePath: '/usr/bin/chromium' } : {}),
  });
  const stateFile = path.join(dataDir, 'storage-state.json');
  const cases: UiEditorCase[] = [];
  try {
    await fetch(`${server.url}/cms/rest/folders/by-path/${FOLDER}`, {
      method: 'PUT',
      headers: {
        authorization: ADMIN_BASIC,
        'content-type': 'application/json',
        'x-requested-with': 'XMLHttpRequest',
      },
      body: '{}',
    });
    await signIn(browser, server.url, stateFile);
    for (const count of opts.sizes ?? [50, 200]) {
      const runs = count >= 200 ? Math.max(2, Math.ceil(opts.runs / 2)) : opts.runs;
      const all: RunFigures[] = [];
      for (let i = 0; i < runs; i++) {
        // The same page every run (the save of the run before changed it), in a fresh context: no drafts, no cache.
        await putPage(server, `w${count}`, count);
        const context = await browser.newContext({ storageState: stateFile, viewport: { width: 1400, height: 900 } });
        try {
          all.push(await oneRun(context, `${server.url}/pages/${FOLDER}/w${count}`, count));
        } finally {
          await context.close();
        }
        const r = all.at(-1)!;
        log(
          `  ${count} widgets, run ${i + 1}/${runs}: first editable ${r.firstEditable.toFixed(0)} ms, all content ${r.allContent.toFixed(0)} ms, typing p95 ${statOf(r.typing).p95.toFixed(1)} ms, long tasks ${r.typingLongTasks}`,
        );
      }
      const flat = (f: (r: RunFigures) => number[]) => statOf(all.flatMap(f));
      const c: UiEditorCase = {
        widgets: count,
        runs,
        firstEditable: flat((r) => [r.firstEditable]),
        allContent: flat((r) => [r.allContent]),
        typing: flat((r) => r.typing),
        typingFrame: flat((r) => r.typingFrame),
        typingLongTasks: flat((r) => [r.typingLongTasks]),
        mutationsElsewherePerKey: flat((r) => [r.mutationsElsewherePerKey]),
        frames: flat((r) => r.frames),
        focus: flat((r) => r.focus),
        paletteInsert: flat((r) => r.paletteInsert),
        typingDuringSave: flat((r) => r.typingDuringSave),
      };
      cases.push(c);
    }
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printUiEditor({ cases }, log);
  return { cases };
}

/** The table of the page editor's figures (ms; medians and p95s over every run). */
export function printUiEditor(r: UiEditorResult, log: (line: string) => void) {
  const ms = (s: Stat) => `${s.median.toFixed(0)} / ${s.p95.toFixed(0)}`;
  log('\nPage editor in Chromium (median / p95, ms; n = samples)');
  const rows: [string, (c: UiEditorCase) => Stat, string][] = [
    ['navigation → first editable', (c) => c.firstEditable, '≤ 500 median'],
    ['navigation → all content', (c) => c.allContent, '≤ 1000'],
    ['typing: keydown → DOM', (c) => c.typing, 'p95 ≤ 16'],
    ['typing: keydown → next frame', (c) => c.typingFrame, ''],
    ['typing: frame times', (c) => c.frames, ''],
    ['typing: long tasks per run', (c) => c.typingLongTasks, ''],
    ['typing: DOM changes elsewhere / key', (c) => c.mutationsElsewherePerKey, ''],
    ['focus a widget (→ frame)', (c) => c.focus, '≤ 50'],
    ['palette insert (→ frame)', (c) => c.paletteInsert, '≤ 100'],
    ['typing during a save', (c) => c.typingDuringSave, 'p95 ≤ 16'],
  ];
  for (const c of r.cases) {
    log(`  ${c.widgets} widgets, ${c.runs} runs`);
    for (const [name, get, goal] of rows) {
      const s = get(c);
      log(`    ${name.padEnd(38)} ${ms(s).padStart(13)}  (n ${s.n})  ${goal}`);
    }
  }
}
