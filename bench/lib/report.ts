import type { DatasetManifest } from './dataset.js';
import { HOT_PAGE_CASE, SEARCH_PREFIX_CASE, SEARCH_WORD_CASE, type ApiSuiteResult } from '../suites/api.js';
import type { ScaleResult } from '../suites/scale.js';
import type { SpaResult } from '../suites/spa.js';
import type { ThumbnailResult } from '../suites/thumbnails.js';
import type { TransferResult } from '../suites/upload.js';
import type { UiLibraryResult } from '../suites/ui-library.js';
import type { UiEditorResult } from '../suites/ui-editor.js';
import type { EventsResult } from '../suites/events.js';

export interface Target {
  name: string;
  value: number | null;
  /** e.g. "≥ 0.8×" */
  target: string;
  pass: boolean | null;
  unit: string;
  note?: string;
}

export interface BenchResults {
  date: string;
  commit: string;
  command: string;
  quick: boolean;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGiB: number;
    node: string;
    platform: string;
    loadBefore: number[];
    loadAfter: number[];
  };
  suites: {
    spa?: SpaResult;
    thumbnails?: ThumbnailResult;
    api?: ApiSuiteResult;
    apiPostgres?: ApiSuiteResult;
    scale?: ScaleResult;
    upload?: TransferResult;
    uiLibrary?: UiLibraryResult;
    uiEditor?: UiEditorResult;
    events?: EventsResult[];
    [dataset: `dataset${number}`]: DatasetManifest;
  };
  targets: Target[];
  /** Which run each suite's figures come from (several with `--merge`), and the load average it started under. */
  provenance?: Record<string, { date: string; commit: string; loadBefore: number[] }>;
}

const MB = 1_000_000;

/** Each target of the issue with the figure measured for it (null when its suite did not run). */
export function targetsOf(r: BenchResults): Target[] {
  const t: Target[] = [];
  const atLeast = (name: string, value: number | undefined, min: number, unit = '×', note?: string) =>
    t.push({
      name,
      value: value ?? null,
      target: `≥ ${min}${unit}`,
      pass: value === undefined ? null : value >= min,
      unit,
      note,
    });
  const atMost = (name: string, value: number | undefined, max: number, unit: string, note?: string) =>
    t.push({
      name,
      value: value ?? null,
      target: `≤ ${max}${unit === '×' ? '' : ' '}${unit}`,
      pass: value === undefined ? null : value <= max,
      unit,
      note,
    });

  for (const api of [r.suites.api, r.suites.apiPostgres]) {
    if (!api) continue;
    // The server as shipped, then (when measured) with the response cache off.
    for (const [variant, cases] of [
      ['', api.cases],
      [', cache off', api.uncached?.cases],
    ] as const) {
      if (!cases) continue;
      const db = `${api.database === 'sqlite' ? 'SQLite' : 'PostgreSQL'}${variant}`;
      const c = (name: string) => cases.find((x) => x.name === name);
      atLeast(`GET page req/s vs bare route (${db})`, c('GET page')?.ratio, 0.8);
      atLeast(`PUT page req/s vs bare route (${db})`, c('PUT page (small change)')?.ratio, 0.5);
      // Issue 19: against the database anchor (one indexed SELECT / one committed UPDATE on the same engine).
      const sqlite = api.database === 'sqlite';
      if (variant) {
        // The same for asset metadata and folders as for pages.
        for (const [label, name] of [
          ['GET page', 'GET page'],
          ['GET asset metadata', 'GET asset metadata'],
          ['GET folder', 'GET folder (100 children)'],
        ] as const) {
          atLeast(`${label} req/s vs one-SELECT anchor (${db})`, c(name)?.anchorRatio, 0.7);
        }
      } else {
        for (const [label, name] of [
          ['PUT page', 'PUT page (small change)'],
          ['PUT asset metadata', 'PUT asset metadata (a field)'],
          ['PUT section', 'PUT section (display title)'],
        ] as const) {
          atLeast(`${label} req/s vs one-UPDATE anchor (${db})`, c(name)?.anchorRatio, sqlite ? 1 : 0.5);
          if (!sqlite) atMost(`${label} p99 (${db})`, c(name)?.folio.p99, 20, 'ms');
        }
        // One page written by every client at once: the page's row is held no longer than one UPDATE holds it.
        if (!sqlite) {
          atLeast(`PUT hot page req/s vs one-row UPDATE anchor (${db})`, c(HOT_PAGE_CASE)?.anchorRatio, 0.6);
          atMost(`PUT hot page p99 (${db})`, c(HOT_PAGE_CASE)?.folio.p99, 25, 'ms');
        }
        const session = c('GET page (session cookie)');
        const basic = c('GET page');
        atLeast(
          `GET page, session cookie / Basic (${db})`,
          session && basic ? session.folio.rps / basic.folio.rps : undefined,
          0.9,
        );
      }
      // Issue 39: search one request at a time (measured on the server as shipped).
      if (!variant) {
        atMost(`search, one word: p95 one at a time (${db})`, c(SEARCH_WORD_CASE)?.sequential?.p95, 30, 'ms');
        atMost(`search, prefix: p95 one at a time (${db})`, c(SEARCH_PREFIX_CASE)?.sequential?.p95, 50, 'ms');
      }
      // The hot page and search have goals of their own (above).
      const own = new Set([HOT_PAGE_CASE, SEARCH_WORD_CASE, SEARCH_PREFIX_CASE]);
      const worst = [...cases].filter((x) => !own.has(x.name)).sort((a, b) => b.folio.p99 - a.folio.p99)[0];
      atMost(
        `p99 under load, worst case (${db})`,
        worst?.folio.p99,
        20,
        'ms',
        worst ? `${worst.name}, ${api.connections} connections` : undefined,
      );
    }
  }
  if (r.suites.scale) {
    for (const c of r.suites.scale.cases) {
      atMost(`${c.name}: latency at 100k / 1k pages`, c.p50Ratio, 1.2, '×', 'median, unloaded');
    }
    atMost(
      'listing page 2,000 / page 1 (100k dataset)',
      r.suites.scale.listingRatio.large,
      1.2,
      '×',
      'median, unloaded',
    );
  }
  const u = r.suites.upload;
  if (u) {
    atMost('1 GiB upload: peak RSS growth', u.rssGrowth / MB, 150, 'MB');
    atLeast('1 GiB upload throughput vs cp', u.uploadVsCp, 0.5, '×', `vs cp + fsync: ${u.uploadVsCpFsync.toFixed(2)}×`);
    atLeast('1 GiB download vs bare stream', u.downloadVsBare, 0.8);
  }
  if (r.suites.thumbnails) atMost('12 MP thumbnail, median of 20', r.suites.thumbnails.thumbnailMedian, 150, 'ms');
  if (r.suites.spa) {
    atMost('SPA initial JS (gzip)', r.suites.spa.initialJs.gzip / 1000, 180, 'kB');
    for (const e of r.suites.spa.editors ?? []) {
      t.push({
        name: `${e.name}: lazy`,
        value: e.gzip / 1000,
        target: 'lazy',
        pass: e.notInitial,
        unit: 'kB',
        note: `what ${e.entry} adds to the first screen's JS, gzip`,
      });
    }
  }
  const lib = r.suites.uiLibrary;
  if (lib) {
    atMost('Asset library (100k): open → cards, median', lib.open.median, 1000, 'ms', `p95 ${fmt(lib.open.p95)} ms`);
    // One frame at 60 Hz: requestAnimationFrame's intervals are 16.7 ms when no frame is missed.
    atMost(
      'Asset library: scroll frame interval p95',
      lib.scroll.p95,
      16.7,
      'ms',
      `${lib.scroll.longTasks} long tasks`,
    );
    atMost('Asset library: Enter → details, median', lib.panel.median, 100, 'ms', `p95 ${fmt(lib.panel.p95)} ms`);
  }
  for (const c of r.suites.uiEditor?.cases ?? []) {
    const w = `page editor, ${c.widgets} widgets, ${c.mode ?? 'first visit'}`;
    atMost(`${w}: navigation → first editable`, c.firstEditable.median, 500, 'ms', 'median');
    atMost(`${w}: all content visible`, c.allContent.median, 1000, 'ms', 'median');
    atMost(`${w}: typing keydown → DOM`, c.typing.p95, 16, 'ms', 'p95');
    atMost(`${w}: focus a widget`, c.focus.median, 50, 'ms', 'median');
    atMost(`${w}: palette insert`, c.paletteInsert.median, 100, 'ms', 'median');
    atMost(`${w}: typing during a save`, c.typingDuringSave.p95, 16, 'ms', 'p95');
  }
  for (const e of r.suites.events ?? []) {
    const db = e.database === 'sqlite' ? 'SQLite' : 'PostgreSQL';
    const note = `${fmt(e.bytesPerStream / 1024, 1)} KiB a stream; PUT p50 ${fmt(e.putRatio, 2)}× with them open`;
    atMost(`Live events, ${e.streams} open streams: events missing (${db})`, e.missing, 0, 'events', note);
    atMost(`Live events: answer → event on the last stream (${db})`, e.deliveryP95, 1000, 'ms', 'p95');
  }
  return t;
}

function table(rows: string[][], log: (line: string) => void) {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  rows.forEach((r, n) => {
    log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
    if (n === 0) log(widths.map((w) => '─'.repeat(w)).join('  '));
  });
}

const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The readable summary: one table per suite, then the targets. */
export function printTable(r: BenchResults, log: (line: string) => void) {
  log(`Machine: ${r.machine.cpus} × ${r.machine.cpuModel}, ${r.machine.memoryGiB} GiB, Node ${r.machine.node}`);
  log(
    `Load average before ${r.machine.loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${r.machine.loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
  );
  const runs = new Map<string, string[]>();
  for (const [suite, run] of Object.entries(r.provenance ?? {})) {
    const key = `${run.date}, commit ${run.commit}, load average ${run.loadBefore.map((l) => l.toFixed(2)).join(' ')}`;
    runs.set(key, [...(runs.get(key) ?? []), suite]);
  }
  if (runs.size > 1) for (const [run, suites] of runs) log(`  ${suites.join(', ')}: run of ${run}`);
  for (const api of [r.suites.api, r.suites.apiPostgres]) {
    if (!api) continue;
    log(
      `\nAPI on ${api.database} (${fmt(api.pages)} pages, ${api.connections} connections, best of ${api.rounds} × ${api.secondsPerRound} s)`,
    );
    table(
      [
        [
          'case',
          'bytes',
          'req/s',
          'p50 ms',
          'p99 ms',
          'bare req/s',
          'bare p99',
          'ratio',
          'CPU µs/req',
          'CPU ratio',
          'db anchor req/s',
          'anchor p99',
          'anchor ratio',
        ],
        ...[
          ...api.cases.map((c) => ({ c, label: c.name })),
          ...(api.uncached?.cases ?? []).map((c) => ({ c, label: `${c.name} (cache off)` })),
        ].map(({ c, label }) => [
          label,
          fmt(c.responseBytes),
          fmt(c.folio.rps),
          fmt(c.folio.p50),
          fmt(c.folio.p99),
          fmt(c.bare.rps),
          fmt(c.bare.p99),
          `${c.ratio.toFixed(2)}×`,
          c.cpu ? `${c.cpu.folioUs.toFixed(1)} / ${c.cpu.bareUs.toFixed(1)}` : '—',
          c.cpu ? `${c.cpu.ratio.toFixed(2)}×` : '—',
          c.anchor ? fmt(c.anchor.rps) : '—',
          c.anchor ? fmt(c.anchor.p99) : '—',
          c.anchorRatio !== undefined ? `${c.anchorRatio.toFixed(2)}×` : '—',
        ]),
      ],
      log,
    );
  }
  const s = r.suites.scale;
  if (s) {
    log(
      `\nScale: ${fmt(s.smallPages)} vs ${fmt(s.largePages)} pages (unloaded, ${s.samplesPerSide} requests per side, ms${
        s.env
          ? `; ${Object.entries(s.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ')}`
          : ''
      })`,
    );
    table(
      [
        ['case', '1k p50', '1k p99', '100k p50', '100k p99', 'p50 ratio', 'mean ratio'],
        ...s.cases.map((c) => [
          c.name,
          fmt(c.small.p50, 2),
          fmt(c.small.p99, 2),
          fmt(c.large.p50, 2),
          fmt(c.large.p99, 2),
          `${c.p50Ratio.toFixed(2)}×`,
          `${c.meanRatio.toFixed(2)}×`,
        ]),
      ],
      log,
    );
  }
  const u = r.suites.upload;
  if (u) {
    log(`\nTransfer of ${fmt(u.bytes / 1024 ** 3, 2)} GiB (MiB/s, best of the rounds; client: curl)`);
    table(
      [
        ['', 'Folio', 'baseline', 'ratio'],
        ['upload vs cp', fmt(u.folioUpload), fmt(u.cp), `${u.uploadVsCp.toFixed(2)}×`],
        ['upload vs cp + fsync', fmt(u.folioUpload), fmt(u.cpFsync), `${u.uploadVsCpFsync.toFixed(2)}×`],
        [
          'upload vs bare stream',
          fmt(u.folioUpload),
          fmt(u.bareUpload),
          `${(u.folioUpload / u.bareUpload).toFixed(2)}×`,
        ],
        ['download vs bare stream', fmt(u.folioDownload), fmt(u.bareDownload), `${u.downloadVsBare.toFixed(2)}×`],
      ],
      log,
    );
    log(
      `Server RSS: ${fmt(u.rssBefore / MB, 1)} MB before, peak ${fmt(u.rssPeak / MB, 1)} MB during the upload (growth ${fmt(u.rssGrowth / MB, 1)} MB)`,
    );
  }
  if (r.suites.thumbnails) {
    const th = r.suites.thumbnails;
    log(
      `\nThumbnail of a ${th.width}×${th.height} JPEG (${fmt(th.fileBytes / MB, 1)} MB): median ${fmt(th.thumbnailMedian, 1)} ms, probe + thumbnail ${fmt(th.uploadStepMedian, 1)} ms (${th.runs} runs)`,
    );
  }
  if (r.suites.spa) {
    const sp = r.suites.spa;
    log(`\nSPA (kB = 1000 bytes)`);
    table(
      [
        ['', 'raw kB', 'gzip kB', 'files'],
        [
          'initial JS',
          fmt(sp.initialJs.raw / 1000, 1),
          fmt(sp.initialJs.gzip / 1000, 1),
          String(sp.initialJs.files.length),
        ],
        [
          'initial CSS',
          fmt(sp.initialCss.raw / 1000, 1),
          fmt(sp.initialCss.gzip / 1000, 1),
          String(sp.initialCss.files.length),
        ],
        ...sp.lazy.map((l) => [
          `lazy: ${l.entry}`,
          fmt(l.raw / 1000, 1),
          fmt(l.gzip / 1000, 1),
          String(l.files.length),
        ]),
      ],
      log,
    );
  }
  if (r.suites.uiLibrary) {
    const u = r.suites.uiLibrary;
    const ms = (x: { median: number; p95: number; n: number }) => [fmt(x.median, 1), fmt(x.p95, 1), String(x.n)];
    log(`\nAsset library in Chromium: ${u.folder}, ${fmt(u.assets)} assets (ms)`);
    table(
      [
        ['', 'median', 'p95', 'runs'],
        ['open → first cards', ...ms(u.open)],
        ['scroll: frame interval', ...ms(u.scroll)],
        ['Enter → panel frame', ...ms(u.panel.frame)],
        ['Enter → details', ...ms(u.panel)],
      ],
      log,
    );
    log(
      `  scroll: ${u.scroll.longTasks} long tasks (${u.scroll.longTaskMs} ms), ${fmt(u.scroll.scrolledPx)} px a pass; opens: ${u.openLongTasks.count} long tasks (${u.openLongTasks.totalMs} ms, longest ${u.openLongTasks.longestMs})`,
    );
  }
  log('\nTargets');
  table(
    [
      ['target', 'measured', 'goal', 'result'],
      ...r.targets.map((x) => [
        x.name,
        x.value === null ? '—' : `${fmt(x.value, 2)}${x.unit === '×' ? '×' : ` ${x.unit}`}`,
        x.target,
        (x.pass === null ? 'n/a' : x.pass ? 'pass' : 'MISS') + (x.note ? ` (${x.note})` : ''),
      ]),
    ],
    log,
  );
}
