import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchResults, type SearchHit } from '../../../shared/api/search.js';
import { SEARCH_URL } from '../../../shared/api/paths.js';
import { createTestApp, problemOf, type TestApp } from '../../test/harness.js';
import { upload } from '../assets/assets.fixtures.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ CMS_SEED: 'true' });
});
afterEach(async () => {
  await t.close();
});

/** GET /search with these query pairs; answers the response. */
function get(params: Record<string, string | string[]>, authorization?: string) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) qs.append(k, one);
  return t.request({
    method: 'GET',
    url: `${SEARCH_URL}?${qs.toString()}`,
    ...(authorization !== undefined ? { headers: { authorization } } : {}),
  });
}

/** The hits of a search, checked against the contract. */
async function search(params: Record<string, string | string[]>, authorization?: string): Promise<SearchResults> {
  const res = await get(params, authorization);
  expect(res.statusCode, res.body).toBe(200);
  return SearchResults.strict().parse(res.json());
}
const paths = async (q: string, more: Record<string, string | string[]> = {}) =>
  (await search({ q, ...more })).items.map((h) => h.path);

/** PUTs an article page at demo/articles/<name> (or at `name` when it is a path) with a rich text widget. */
async function putPage(name: string, text: string, more: Record<string, unknown> = {}) {
  const res = await t.request({
    method: 'PUT',
    url: `/cms/rest/pages/by-path/${name.includes('/') ? name : `demo/articles/${name}`}`,
    payload: {
      templateName: 'article',
      displayName: name,
      body: [
        {
          name: 'body',
          widgets: [{ type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text } } }],
        },
      ],
      ...more,
    },
  });
  expect([200, 201], res.body).toContain(res.statusCode);
  return res;
}

describe('GET /cms/rest/search', () => {
  it('rejects unauthenticated', async () => {
    const res = await get({ q: 'demo' }, '');
    expect(res.statusCode).toBe(401);
  });

  it('rejects an invalid query with a 400 problem', async () => {
    for (const params of [
      {} as Record<string, string>,
      { q: '' },
      { q: 'x'.repeat(201) },
      { q: 'a', limit: '0' },
      { q: 'a', limit: '101' },
      { q: 'a', limit: 'ten' },
      { q: 'a', kind: 'widget' },
      { q: 'a', state: 'Sleeping' },
      { q: 'a', cursor: 'not-a-cursor' },
    ]) {
      const res = await get(params);
      expect(res.statusCode, JSON.stringify(params)).toBe(400);
      expect(problemOf(res).status).toBe(400);
    }
    const missing = await get({ q: 'a', folder: 'demo/nowhere' });
    expect(missing.statusCode).toBe(404);
    expect(problemOf(missing).code).toBe('FOLDER_NOT_FOUND');
  });

  it('takes query syntax as words: no input makes it fail', async () => {
    await putPage('syntax', '<p>Quotes and stars everywhere</p>');
    for (const q of [
      '"',
      '"quotes',
      'quotes"',
      '- -',
      '-',
      '*',
      'AND',
      'OR NOT',
      'NEAR(quotes)',
      'title:quotes',
      '(quotes',
      "quo'tes",
      '!!quotes',
      'quotes & | !',
      '^quotes',
      '{title}: quotes',
      'quotes:*',
      '\\',
      '<->',
    ]) {
      const res = await get({ q });
      expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
      SearchResults.parse(res.json());
    }
    expect(await paths('"quotes and')).toContain('demo/articles/syntax');
    expect(await paths('(quotes)')).toContain('demo/articles/syntax');
    expect(await paths('stars:*')).toContain('demo/articles/syntax');
    expect((await search({ q: '- - "' })).items).toEqual([]);
  });

  it('matches by English stem, in rich text as text, with an escaped snippet', async () => {
    await putPage('race', '<p>The <b>runners</b> ran; Tom &amp; Jerry were <em>running</em> 3 &lt; 4 &gt; 2.</p>');
    const found = await search({ q: 'run' });
    const hit = found.items.find((h) => h.path === 'demo/articles/race')!;
    expect(hit).toMatchObject({ kind: 'page', title: 'race', type: 'article', state: 'Draft' });
    expect(hit.snippet).toContain('<mark>running</mark>');
    expect(hit.snippet).toContain('Tom &amp; Jerry');
    expect(hit.snippet, hit.snippet).toContain('3 &lt; 4 &gt; 2');
    // Nothing but <mark> is markup: the tags of the rich text are gone, not escaped.
    expect(hit.snippet.replace(/<\/?mark>/g, '')).not.toMatch(/[<>]/);
    expect(hit.snippet).not.toContain('&lt;b&gt;');
    // Tag names and attributes are not words of the page.
    expect(await paths('em')).not.toContain('demo/articles/race');
    expect(await paths('runs')).toContain('demo/articles/race');
  });

  it('matches phrases in order, excludes -words, and the last word as a prefix', async () => {
    await putPage('fox', '<p>The quick brown fox jumps over the gallery wall.</p>');
    await putPage('dog', '<p>A brown quick dog sleeps in the garden.</p>');
    expect((await paths('quick brown')).sort()).toEqual(['demo/articles/dog', 'demo/articles/fox']);
    expect(await paths('"quick brown"')).toEqual(['demo/articles/fox']);
    expect(await paths('"quick brown')).toEqual(['demo/articles/fox']);
    expect(await paths('brown -fox')).toEqual(['demo/articles/dog']);
    expect(await paths('brown -"quick brown"')).toEqual(['demo/articles/dog']);
    expect(await paths('galle')).toEqual(['demo/articles/fox']);
    expect(await paths('brown gard')).toEqual(['demo/articles/dog']);
    // Only the last word is a prefix; a closed phrase is not one.
    expect(await paths('galle wall')).toEqual([]);
    expect(await paths('"galle"')).toEqual([]);
  });

  it('answers a title match before a body match', async () => {
    await putPage('lighthouse', '<p>Nothing to see.</p>', { displayName: 'Lighthouse keepers' });
    await putPage('coast', '<p>The lighthouse on the coast, the lighthouse again.</p>');
    expect((await paths('lighthouse')).slice(0, 2)).toEqual(['demo/articles/lighthouse', 'demo/articles/coast']);
    // An excluded word in the body leaves a title match out too.
    await putPage('beacon', '<p>A fox lives here.</p>', { displayName: 'Lighthouse beacon' });
    expect(await paths('lighthouse -fox')).toEqual(['demo/articles/lighthouse', 'demo/articles/coast']);
    expect((await paths('lighthouse -keepers')).slice(0, 2)).toEqual(['demo/articles/beacon', 'demo/articles/coast']);
  });

  it('searches SEO fields, summaries, folder titles, asset fields, alt text and file names', async () => {
    await putPage('seo', '<p>plain</p>', {
      summary: 'A summary about zeppelins',
      seo: { metaDescription: 'Meta words about quokkas', tags: ['marmalade'] },
    });
    expect(await paths('zeppelin')).toEqual(['demo/articles/seo']);
    expect(await paths('quokkas')).toEqual(['demo/articles/seo']);
    expect(await paths('marmalade')).toEqual(['demo/articles/seo']);
    // Seeded: the section "Our team", the images with their alt text.
    const team = (await search({ q: 'team' })).items.find((h) => h.path === 'demo/about/team');
    expect(team).toMatchObject({ kind: 'folder', type: 'section', state: null, title: 'Our team' });
    const hills = await search({ q: 'hills' });
    expect(hills.items.map((h) => h.path)).toContain('Assets/images/hero.jpg');
    const res = await upload(t, 'Assets/docs/annual-report.pdf', Buffer.from('%PDF-1.4\n'), {
      filename: 'annual-report.pdf',
      contentType: 'application/pdf',
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    const report = (await search({ q: 'annual' })).items.find((h) => h.path === 'Assets/docs/annual-report.pdf');
    expect(report).toMatchObject({ kind: 'asset', state: 'Draft' });
  });

  it('searches the words people wrote in widgets, not the settings they picked', async () => {
    const res = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/demo/articles/chapter',
      payload: {
        templateName: 'article',
        displayName: 'chapter',
        body: [
          {
            name: 'body',
            widgets: [
              {
                type: 'cmsTitle',
                scope: 'local',
                editable: true,
                asset: { fields: { heading_level: 'h3', prefix: 'Chapter seven' } },
              },
              {
                type: 'cmsNavon',
                scope: 'local',
                editable: true,
                asset: { fields: { layout: 'vertical', levels: '4' } },
              },
              { type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text: '<h2>Horizons</h2>' } } },
            ],
          },
        ],
      },
    });
    expect([200, 201], res.body).toContain(res.statusCode);
    expect(await paths('seven')).toEqual(['demo/articles/chapter']);
    expect(await paths('horizons')).toEqual(['demo/articles/chapter']);
    // A heading level and a layout picked from a list, or a number, are not words of the page (nor its tags).
    for (const setting of ['h3', 'vertical', 'h2']) expect(await paths(setting), setting).toEqual([]);
    const hit = (await search({ q: 'seven' })).items[0]!;
    expect(hit.snippet).not.toMatch(/h3|vertical/);
  });

  it('keeps the fields of a snippet apart: "Arctic guide · ice · Walrus", not one run of words', async () => {
    await putPage('fields', '<p>Walrus colonies</p>', { seo: { browserTitle: 'Arctic guide', tags: ['ice'] } });
    const hit = (await search({ q: 'walrus' })).items[0]!;
    expect(hit.path).toBe('demo/articles/fields');
    expect(hit.snippet).toContain('Arctic guide · ice · <mark>Walrus</mark> colonies');
    // The separator is no word: a phrase across two fields matches as before.
    expect(await paths('"ice walrus"')).toEqual(['demo/articles/fields']);
  });

  it('finds the new words right after a PUT, never the removed ones', async () => {
    const first = await putPage('news', '<p>An albatross landed.</p>');
    expect(await paths('albatross')).toEqual(['demo/articles/news']);
    const etag = String(first.headers.etag);
    const res = await t.request({
      method: 'PUT',
      url: '/cms/rest/pages/by-path/demo/articles/news',
      payload: {
        templateName: 'article',
        body: [
          {
            name: 'body',
            widgets: [
              { type: 'cmsRichText', scope: 'local', editable: true, asset: { fields: { text: '<p>A pelican.</p>' } } },
            ],
          },
        ],
      },
      headers: { 'if-match': etag },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await paths('albatross')).toEqual([]);
    expect(await paths('pelican')).toEqual(['demo/articles/news']);
  });

  it('finds a renamed or moved item at its new path, a copy at its own, and never a deleted one', async () => {
    await putPage('kiwi', '<p>The kiwi is a bird.</p>');
    const rename = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      payload: { path: 'demo/articles', newName: 'stories' },
    });
    expect(rename.statusCode, rename.body).toBeLessThan(300);
    expect(await paths('kiwi')).toEqual(['demo/stories/kiwi']);
    const move = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/move',
      payload: { itemPath: 'demo/stories/kiwi', targetFolderPath: 'demo/news' },
    });
    expect(move.statusCode, move.body).toBeLessThan(300);
    expect(await paths('kiwi')).toEqual(['demo/news/kiwi']);
    const copy = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/copy',
      payload: { itemPath: 'demo/news/kiwi', targetFolderPath: 'demo/stories' },
    });
    expect(copy.statusCode, copy.body).toBeLessThan(300);
    expect((await paths('kiwi')).sort()).toEqual(['demo/news/kiwi', 'demo/stories/kiwi']);
    // A renamed page is found by its new name.
    const renamePage = await t.request({
      method: 'POST',
      url: '/cms/rest/folders/rename',
      payload: { path: 'demo/stories/kiwi', newName: 'flightless' },
    });
    expect(renamePage.statusCode, renamePage.body).toBeLessThan(300);
    expect(await paths('flightless')).toEqual(['demo/stories/flightless']);

    const del = await t.request({ method: 'DELETE', url: '/cms/rest/pages/by-path/demo/news/kiwi' });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect(await paths('kiwi')).toEqual(['demo/stories/flightless']);
    const delFolder = await t.request({
      method: 'DELETE',
      url: '/cms/rest/folders/by-path/demo/stories?includeSubFolders=true',
    });
    expect(delFolder.statusCode, delFolder.body).toBeLessThan(300);
    expect(await paths('kiwi')).toEqual([]);
    expect(await paths('flightless')).toEqual([]);
    const rows = await t.app.folio.ctx.db
      .selectFrom('search_docs' as never)
      .select('node_id' as never)
      .execute();
    const nodes = await t.app.folio.ctx.db.selectFrom('nodes').select('id').execute();
    // Every node but the two roots (the tree's and the trash's), no leftovers: trashed items keep their rows.
    expect(rows.length).toBe(nodes.length - 2);
  });

  it('filters by kind, site, folder, state and type', async () => {
    await putPage('otter', '<p>Otters swim.</p>');
    const up = await upload(t, 'Assets/animals/otter.png', Buffer.from('not really a png'), {
      filename: 'otter.png',
      contentType: 'application/octet-stream',
    });
    expect(up.statusCode, up.body).toBeLessThan(300);
    expect((await paths('otter')).sort()).toEqual(['Assets/animals/otter.png', 'demo/articles/otter']);
    expect(await paths('otter', { kind: 'page' })).toEqual(['demo/articles/otter']);
    expect((await paths('otter', { kind: ['page', 'asset'] })).length).toBe(2);
    expect(await paths('otter', { kind: 'folder' })).toEqual([]);
    expect(await paths('otter', { site: 'demo' })).toEqual(['demo/articles/otter']);
    expect(await paths('otter', { site: 'Assets' })).toEqual(['Assets/animals/otter.png']);
    expect(await paths('otter', { folder: 'demo/articles' })).toEqual(['demo/articles/otter']);
    expect(await paths('otter', { folder: 'demo/about' })).toEqual([]);
    expect(await paths('otter', { folder: 'Assets/animals', site: 'demo' })).toEqual([]);
    expect(await paths('otter', { type: 'cmsRichText' })).toEqual(['demo/articles/otter']);
    expect(await paths('otter', { type: 'cmsVideo' })).toEqual([]);
    expect((await paths('otter', { state: 'Draft' })).length).toBe(2);
    expect(await paths('otter', { state: ['Public', 'Review'] })).toEqual([]);
  });

  it('pages through every hit with the cursor, each once, the title matches first', async () => {
    for (const n of ['p1', 'p2', 'p3', 'p4', 'p5']) await putPage(n, `<p>walrus ${n}</p>`);
    for (const n of ['t1', 't2', 't3']) await putPage(n, '<p>tusks</p>', { displayName: `Walrus ${n}` });
    const all = async (params: Record<string, string>) => {
      const seen: SearchHit[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 20; i++) {
        const r: SearchResults = await search({ ...params, ...(cursor ? { cursor } : {}) });
        seen.push(...r.items);
        cursor = r.next;
        if (!cursor) break;
      }
      return seen.map((h) => h.path);
    };
    const seen = await all({ q: 'walrus', limit: '2' });
    expect(seen.slice(0, 3).sort()).toEqual(['t1', 't2', 't3'].map((n) => `demo/articles/${n}`));
    expect(seen.slice(3).sort()).toEqual(['p1', 'p2', 'p3', 'p4', 'p5'].map((n) => `demo/articles/${n}`));
    expect(await all({ q: 'walru', limit: '3' })).toEqual(seen);
  });

  it('reads further candidates when the filters leave out the best ones', async () => {
    for (let i = 0; i < 8; i++) await putPage(`t${i}`, '<p>tusks</p>', { displayName: `Narwhal ${i}` });
    await putPage('demo/news/deep', '<p>A narwhal far down the list.</p>');
    // The eight title matches come first and lie outside the folder: only the body match is in it.
    const r = await search({ q: 'narwhal', folder: 'demo/news', limit: '1' });
    expect(r.items.map((h) => h.path)).toEqual(['demo/news/deep']);
    expect(r.items[0]!.snippet).toContain('<mark>narwhal</mark>');
  });

  it('keeps short common words on both databases (no stopword list), stemming the rest', async () => {
    await putPage('hamlet', '<p>To be, or not to be: that is the question.</p>');
    expect(await paths('"to be or not to be"')).toEqual(['demo/articles/hamlet']);
    expect(await paths('"that is the"')).toEqual(['demo/articles/hamlet']);
    expect(await paths('questions')).toEqual(['demo/articles/hamlet']);
    expect(await paths('be -question')).not.toContain('demo/articles/hamlet');
  });

  it('answers a viewer what they may read, with snippets', async () => {
    await putPage('heron', '<p>A grey heron.</p>');
    const folder = await t.request({
      method: 'PUT',
      url: '/cms/rest/folders/by-path/demo/articles',
      payload: { accessLevel: 'READ' },
    });
    expect(folder.statusCode, folder.body).toBeLessThan(300);
    const viewer = await t.createUser('vera', 'Viewer');
    const r = await search({ q: 'heron' }, viewer);
    expect(r.items.map((h) => h.path)).toEqual(['demo/articles/heron']);
    expect(r.items[0]!.snippet).toContain('<mark>heron</mark>');
  });
});
