/**
 * Lost updates: CLIENTS concurrent clients change the same page, each sending If-Match with the ETag it read.
 * Exactly one write succeeds per version (every other one gets 412), and the final page holds every change
 * that was acknowledged. The same for an asset's metadata and a folder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordResult } from './results.js';
import { call, createTemplate, ok, report, startHarness, tally, type Harness } from './support.js';

const CLIENTS = 100;

interface Outcome {
  client: number;
  attempts: number;
  /** The If-Match each successful write was sent with: the version it replaced. */
  replaced: string;
  etagAfter: string;
}

describe(`lost updates: ${CLIENTS} concurrent clients with If-Match`, () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness();
    await createTemplate(h.url);
    ok(
      await call(h.url, 'PUT', '/cms/rest/folders/by-path/lu', {
        siteName: 'lu',
        sectionInfo: { displayTitle: 'Lost updates', templateName: 'rel-article', targetWindow: '_self', navClass: '' },
      }),
      'site',
    );
    ok(
      await call(h.url, 'PUT', '/cms/rest/pages/by-path/lu/page', { templateName: 'rel-article', seo: { tags: [] } }),
      'page',
    );
    ok(
      await call(h.url, 'PUT', '/cms/rest/assets/by-path/Assets/lu/note', {
        type: 'cmsSimpleTextAsset',
        fields: { text: 'start' },
      }),
      'asset',
    );
  });

  afterAll(async () => {
    await h?.close();
  });

  /**
   * Every client reads, changes what it read (adds its own mark), and writes with If-Match; on 412 it reads
   * again and retries. `marks` reads the marks out of a representation, `change` adds one.
   */
  async function race(opts: {
    url: string;
    marks: (json: any) => string[];
    body: (json: any, mark: string) => unknown;
  }): Promise<{
    outcomes: Outcome[];
    statuses: Record<string, number>;
    firstShot: Record<string, number>;
    final: string[];
  }> {
    const statuses: number[] = [];
    const firstShot: number[] = [];
    // All clients read the same version first, then write at once: exactly one may win that version.
    const first = await call(h.url, 'GET', opts.url);
    const outcomes = await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        const mark = `c${client}`;
        let read = first;
        for (let attempt = 1; attempt <= CLIENTS * 2; attempt++) {
          const etag = read.headers.get('etag')!;
          const put = await call(h.url, 'PUT', opts.url, opts.body(read.json(), mark), {
            headers: { 'if-match': etag },
          });
          statuses.push(put.status);
          if (attempt === 1) firstShot.push(put.status);
          if (put.status === 200)
            return { client, attempts: attempt, replaced: etag, etagAfter: put.headers.get('etag')! };
          if (put.status !== 412) throw new Error(`client ${client}: ${put.status} ${put.text}`);
          await new Promise((r) => setTimeout(r, Math.random() * 20));
          read = await call(h.url, 'GET', opts.url);
        }
        throw new Error(`client ${client} never got its write in`);
      }),
    );
    const final = opts.marks((await call(h.url, 'GET', opts.url)).json()).filter((m) => /^c\d+$/.test(m));
    return { outcomes, statuses: tally(statuses), firstShot: tally(firstShot), final };
  }

  function check(name: string, r: Awaited<ReturnType<typeof race>>) {
    const replaced = tally(r.outcomes.map((o) => o.replaced));
    const twice = Object.entries(replaced).filter(([, n]) => n > 1);
    const missing = r.outcomes.map((o) => `c${o.client}`).filter((m) => !r.final.includes(m));
    report(
      `lost updates (${name}): first shot ${JSON.stringify(r.firstShot)}; all writes ${JSON.stringify(r.statuses)}; ` +
        `${r.final.length} of ${CLIENTS} changes in the final version`,
    );
    recordResult(`lostUpdates.${name}`, {
      clients: CLIENTS,
      firstShot: r.firstShot,
      statuses: r.statuses,
      versionsWonTwice: twice.length,
      lostChanges: missing.length,
    });
    // One success per version: of all clients that read the same first version, one wins.
    expect(r.firstShot['200']).toBe(1);
    expect(r.firstShot['412']).toBe(CLIENTS - 1);
    // No version was replaced twice, and every acknowledged change is in the final page.
    expect(twice).toEqual([]);
    expect(missing).toEqual([]);
    expect(new Set(r.final).size).toBe(CLIENTS);
  }

  it('pages: one success per version, no change lost', async () => {
    const r = await race({
      url: '/cms/rest/pages/by-path/lu/page',
      marks: (page: { seo: { tags: string[] } }) => page.seo.tags,
      body: (page: { seo: { tags: string[] } }, mark) => ({
        templateName: 'rel-article',
        seo: { tags: [...page.seo.tags, mark] },
      }),
    });
    check('page', r);
  });

  it('asset metadata: one success per version, no change lost', async () => {
    const r = await race({
      url: '/cms/rest/assets/by-path/Assets/lu/note',
      marks: (a: { fields: { text?: string } }) => (a.fields.text ?? '').split(' ').filter(Boolean),
      body: (a: { fields: { text?: string } }, mark) => ({ fields: { text: `${a.fields.text ?? ''} ${mark}`.trim() } }),
    });
    check('asset', r);
  });

  it('folders: one success per version, no change lost', async () => {
    const r = await race({
      url: '/cms/rest/folders/by-path/lu',
      marks: (f: { sectionInfo: { displayTitle: string } }) => f.sectionInfo.displayTitle.split(' '),
      body: (f: { sectionInfo: { displayTitle: string } }, mark) => ({
        sectionInfo: { displayTitle: `${f.sectionInfo.displayTitle} ${mark}` },
      }),
    });
    check('folder', r);
  });
});
