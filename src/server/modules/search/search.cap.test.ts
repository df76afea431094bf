import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchResults } from '../../../shared/api/search.js';
import { SEARCH_URL } from '../../../shared/api/paths.js';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { upload } from '../assets/assets.fixtures.js';
import { FLOOR_WALK } from './search.repository.js';

/** The most matches a search ranks here: small, so a few pages make a word "very common". */
const RANK_LIMIT = 4;

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true', CMS_SEARCH_RANK_LIMIT: String(RANK_LIMIT) });
});
afterEach(async () => {
  await t.close();
});

/** GET /search with these query pairs (as `authorization` when given), checked against the contract. */
async function search(params: Record<string, string | string[]>, authorization?: string): Promise<SearchResults> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) qs.append(k, one);
  const res = await t.request({
    method: 'GET',
    url: `${SEARCH_URL}?${qs.toString()}`,
    ...(authorization !== undefined ? { headers: { authorization } } : {}),
  });
  expect(res.statusCode, res.body).toBe(200);
  return SearchResults.strict().parse(res.json());
}

/** Every page of a search, `limit` hits at a time: the paths in order, and whether each answer said capped. */
async function all(params: Record<string, string>, authorization?: string) {
  const paths: string[] = [];
  const capped: boolean[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const r: SearchResults = await search({ ...params, ...(cursor ? { cursor } : {}) }, authorization);
    paths.push(...r.items.map((h) => h.path));
    capped.push(r.capped);
    cursor = r.next;
    if (!cursor) break;
  }
  return { paths, capped };
}

/**
 * PUTs an article page at `<folder>/<name>` whose text is `text`, then searches (which indexes what waits): the
 * items are indexed in the order they are put, so the last put is the newest match.
 */
async function putIndexed(name: string, text: string, opts: { title?: string; folder?: string } = {}) {
  const res = await t.request({
    method: 'PUT',
    url: `/cms/rest/pages/by-path/${opts.folder ?? 'demo/articles'}/${name}`,
    payload: {
      templateName: 'article',
      displayName: opts.title ?? name,
      body: [
        {
          name: 'body',
          widgets: [{ type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text } } }],
        },
      ],
    },
  });
  expect([200, 201], res.body).toContain(res.statusCode);
  await search({ q: 'indexnow' });
}

const article = (name: string) => `demo/articles/${name}`;

describe('GET /cms/rest/search, a word more items hold than it ranks', () => {
  it('answers only the newest matches, capped, the title match first, paging through them', async () => {
    await putIndexed('old1', '<p>A walrus.</p>');
    await putIndexed('old2', '<p>Another walrus.</p>');
    await putIndexed('titled', '<p>Tusks.</p>', { title: 'Walrus colony' });
    await putIndexed('new1', '<p>A new walrus.</p>');
    await putIndexed('new2', '<p>The newest walrus.</p>');
    const newest = ['new1', 'new2', 'old2'].map(article);
    for (const q of ['walrus', 'walru']) {
      const first = await search({ q });
      expect(first.capped, q).toBe(true);
      expect(first.items.map((h) => h.path)[0], q).toBe(article('titled'));
      expect(
        first.items
          .slice(1)
          .map((h) => h.path)
          .sort(),
        q,
      ).toEqual(newest);
      expect(first.items.find((h) => h.path === article('new2'))!.snippet).toContain('<mark>walrus</mark>');
      expect(first.next).toBeNull();
      // One at a time: the same ones, each once, every page capped.
      const paged = await all({ q, limit: '1' });
      expect(paged.paths).toEqual(first.items.map((h) => h.path));
      expect(paged.capped.every(Boolean)).toBe(true);
    }
    // A match indexed while paging comes in after the cursor (as when not capped), and the pages go on among the
    // matches from where the first page's newest began: the oldest of those stays in.
    const r = await search({ q: 'walrus', limit: '1' });
    expect(r.items.map((h) => h.path)).toEqual([article('titled')]);
    await putIndexed('newer', '<p>Yet another walrus.</p>');
    const rest = await all({ q: 'walrus', limit: '10', cursor: r.next! });
    expect(rest.paths.sort()).toEqual([...newest, article('newer')].sort());
    expect(rest.capped).toEqual([true]);
    // Not capped: a word no more items hold than it ranks.
    const tusks = await search({ q: 'tusks' });
    expect(tusks).toMatchObject({ capped: false, next: null });
    expect(tusks.items.map((h) => h.path)).toEqual([article('titled')]);
  });

  it('caps a word whose matches are all older than the newest items it reads first', async () => {
    for (const n of ['seal1', 'seal2', 'seal3', 'seal4', 'seal5']) await putIndexed(n, '<p>A grey seal.</p>');
    // Newer items without the word, more than PostgreSQL's floor walks before it asks the GIN index.
    for (let i = 0; i <= RANK_LIMIT * FLOOR_WALK; i++) {
      const res = await t.request({
        method: 'PUT',
        url: `/cms/rest/pages/by-path/demo/articles/other${i}`,
        payload: { templateName: 'article', displayName: `Other ${i}` },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    for (const q of ['seal', 'sea']) {
      const r = await search({ q });
      expect(r.capped, q).toBe(true);
      expect(r.items.map((h) => h.path).sort(), q).toEqual(['seal2', 'seal3', 'seal4', 'seal5'].map(article));
    }
  });

  it('caps among what the excluded words and filters keep', async () => {
    const up = await upload(t, 'Assets/animals/walrus.png', Buffer.from('not really a png'), {
      filename: 'walrus.png',
      contentType: 'application/octet-stream',
    });
    expect(up.statusCode, up.body).toBeLessThan(300);
    await putIndexed('kept1', '<p>A walrus.</p>');
    await putIndexed('kept2', '<p>A walrus.</p>');
    for (const n of ['fox1', 'fox2', 'fox3', 'fox4', 'fox5']) await putIndexed(n, '<p>A walrus and a fox.</p>');
    // Five newer matches hold "fox": without them, the three older are all ranked. (The last word also matches as
    // a prefix: on PostgreSQL the file name `walrus.png` is one word.)
    const noFox = await search({ q: '-fox walrus' });
    expect(noFox.capped).toBe(false);
    expect(noFox.items.map((h) => h.path).sort()).toEqual([
      'Assets/animals/walrus.png',
      article('kept1'),
      article('kept2'),
    ]);
    const plain = await search({ q: 'walrus' });
    expect(plain.capped).toBe(true);
    expect(plain.items.map((h) => h.path).sort()).toEqual(['fox2', 'fox3', 'fox4', 'fox5'].map(article));
    // The asset is older than every page, yet a filter that keeps only it finds it.
    expect(await search({ q: 'walrus', kind: 'asset' })).toMatchObject({
      capped: false,
      items: [{ path: 'Assets/animals/walrus.png' }],
    });
    expect(await search({ q: 'walrus', site: 'Assets' })).toMatchObject({ capped: false, items: [{ kind: 'asset' }] });
    const pages = await all({ q: 'walrus', kind: 'page', limit: '3' });
    expect(pages.paths.sort()).toEqual(['fox2', 'fox3', 'fox4', 'fox5'].map(article));
    expect(pages.capped.every(Boolean)).toBe(true);
  });

  it('answers a viewer only what they may read among the newest, never what is in the trash', async () => {
    for (const n of ['seen0', 'gone1', 'seen1', 'gone2', 'seen2']) await putIndexed(n, '<p>A grey heron.</p>');
    for (const n of ['gone1', 'gone2']) {
      const del = await t.request({ method: 'DELETE', url: `/cms/rest/pages/by-path/${article(n)}` });
      expect(del.statusCode, del.body).toBeLessThan(300);
    }
    const viewer = await t.createUser('vera', 'Viewer');
    const seen = await all({ q: 'heron', limit: '1' }, viewer);
    // The newest four matches hold the two in the trash: only the other two are answered.
    expect(seen.paths.sort()).toEqual(['seen1', 'seen2'].map(article));
    expect(seen.capped.every(Boolean)).toBe(true);
    const hit = (await search({ q: 'heron' }, viewer)).items[0]!;
    expect(hit.snippet).toContain('<mark>heron</mark>');
  });
});
