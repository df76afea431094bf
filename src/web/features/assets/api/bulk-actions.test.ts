import { describe, expect, it } from 'vitest';
import { createClient } from '../../../../shared/api/client';
import { createFakeFetch, json, problem } from '../../../test/fake-api';
import { imageAsset, textAsset } from '../test/asset-fixtures';
import { assetsOfSelection, runBulk } from './bulk-actions';

const META = '/cms/rest/assets/by-path/Assets/lib';

describe('bulk actions on assets', () => {
  it('tries every asset, keeps each failure with its reason and the pages using an asset a delete refused', async () => {
    const used = [
      { path: 'demo/home', displayName: 'Home', region: 'main', href: '/cms/rest/pages/by-path/demo/home' },
    ];
    const server = createFakeFetch({
      [`DELETE ${META}/a`]: () => json({ message: 'Deleted' }),
      [`DELETE ${META}/b.png`]: () =>
        problem(409, 'ASSET_IN_USE', 'Assets/lib/b.png is used on 1 page region(s).', { usedBy: used }),
      [`DELETE ${META}/c`]: () => problem(403, 'NOT_AUTHORIZED', 'You may not change Assets/lib.'),
      [`DELETE ${META}/d`]: () => json({ message: 'Deleted' }),
    });
    const client = createClient({ fetch: server.fetch });
    const assets = [
      textAsset('Assets/lib/a'),
      imageAsset('Assets/lib/b.png'),
      textAsset('Assets/lib/c'),
      textAsset('Assets/lib/d'),
    ];
    const progress: number[] = [];
    const result = await runBulk(client, { kind: 'delete' }, assets, (n) => progress.push(n));
    expect(result.done.map((a) => a.name).sort()).toEqual(['a', 'd']);
    expect(result.failed).toEqual([
      { asset: assets[1], message: 'Assets/lib/b.png is used on 1 page region(s).', usedBy: used },
      { asset: assets[2], message: 'You may not change Assets/lib.' },
    ]);
    expect(progress).toEqual([1, 2, 3, 4]);
    // A forced delete says so.
    await runBulk(client, { kind: 'delete', force: true }, [assets[1]!], () => {});
    expect(server.requests.at(-1)!.search).toBe('?force=true');
  });

  it('publishes with a workflow change, skipping what is Public already, and moves through the folders API', async () => {
    const server = createFakeFetch({
      [`PUT ${META}/a`]: () => json(textAsset('Assets/lib/a')),
      'POST /cms/rest/folders/move': () =>
        json({ name: 'a', path: 'Assets/other/a', kind: 'asset', href: '/cms/rest/assets/by-path/Assets/other/a' }),
    });
    const client = createClient({ fetch: server.fetch });
    const published = { ...textAsset('Assets/lib/p'), workflow: { ...textAsset('x').workflow, state: 'Public' } };
    const result = await runBulk(client, { kind: 'publish' }, [textAsset('Assets/lib/a'), published], () => {});
    expect(result.failed).toEqual([]);
    expect(server.requests.filter((r) => r.method === 'PUT').map((r) => [r.path, r.body])).toEqual([
      [`${META}/a`, { workflow: { state: 'Public' } }],
    ]);
    await runBulk(client, { kind: 'move', targetFolder: 'Assets/other' }, [textAsset('Assets/lib/a')], () => {});
    expect(server.requests.at(-1)!.body).toEqual({ itemPath: 'Assets/lib/a', targetFolderPath: 'Assets/other' });
  });

  it('reads every match of the listing for a selection of "all", and only the chosen ones otherwise', async () => {
    let calls = 0;
    const server = createFakeFetch({
      'GET /cms/rest/assets/list/Assets/lib': (r) => {
        calls++;
        const cursor = new URLSearchParams(r.search).get('cursor');
        return json(
          cursor
            ? { items: [textAsset('Assets/lib/c')], nextCursor: null, total: 3 }
            : { items: [textAsset('Assets/lib/a'), textAsset('Assets/lib/b')], nextCursor: 'next', total: 3 },
        );
      },
    });
    const client = createClient({ fetch: server.fetch });
    const loaded = [textAsset('Assets/lib/a'), textAsset('Assets/lib/b')];
    const all = await assetsOfSelection(client, 'Assets/lib', { type: 'cmsRichTextAsset' }, 'all', loaded);
    expect(all.map((a) => a.name)).toEqual(['a', 'b', 'c']);
    expect(calls).toBe(2);
    expect(server.requests[0]!.search).toContain('type=cmsRichTextAsset');
    const some = await assetsOfSelection(client, 'Assets/lib', {}, new Set(['Assets/lib/b']), loaded);
    expect(some.map((a) => a.name)).toEqual(['b']);
    expect(calls).toBe(2);
  });
});
