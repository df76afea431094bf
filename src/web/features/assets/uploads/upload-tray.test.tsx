import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../shared/api/client';
import { json, problem, type Handlers } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render';
import { imageAsset } from '../test/asset-fixtures';
import { UploadQueue } from './upload-queue';
import type { UploadRequest, UploadResponse, UploadTransport } from './xhr-transport';
import { UploadTray } from './upload-tray';

/** One upload the fake transport received: the test moves its progress and decides its answer. */
interface SentUpload {
  request: UploadRequest;
  progress: (loaded: number, total: number) => void;
  sent: () => void;
  answer: (status: number, body: unknown) => void;
  signal: AbortSignal;
}

/** A transport standing in for XMLHttpRequest: every send waits until the test answers it. */
function fakeTransport() {
  const sends: SentUpload[] = [];
  const transport: UploadTransport = {
    send: (request, { onProgress, onSent, signal }) =>
      new Promise<UploadResponse>((resolve, reject) => {
        signal.addEventListener('abort', () =>
          reject(new ApiError({ status: 0, code: 'ABORTED', title: 'Cancelled', detail: 'Cancelled.' })),
        );
        sends.push({
          request,
          signal,
          progress: (loaded, total) => act(() => onProgress(loaded, total)),
          sent: () => act(() => onSent()),
          answer: (status, body) =>
            resolve({ status, statusText: '', text: JSON.stringify(body), etag: status < 300 ? '"new"' : null }),
        });
      }),
  };
  return { transport, sends };
}

const META = '/cms/rest/assets/by-path/Assets/images';
const missing = () => problem(404, 'ASSET_NOT_FOUND', 'No asset there.');

/** The tray over a queue with a fake transport and a fake server answering `handlers`; `now` drives the speed. */
function setup(handlers: Handlers = {}) {
  const { transport, sends } = fakeTransport();
  let now = 0;
  const made: { queue?: UploadQueue } = {};
  function TrayHost() {
    return made.queue ? <UploadTray queue={made.queue} hrefOfAsset={(a) => `/assets/images?asset=${a.name}`} /> : null;
  }
  const view = renderWithProviders(<TrayHost />, handlers, { csrfToken: 'token-1' });
  const queue = new UploadQueue({
    client: view.api.client,
    transport,
    csrfToken: () => 'token-1',
    now: () => now,
  });
  made.queue = queue;
  view.rerender(<TrayHost />);
  return {
    ...view,
    queue,
    sends,
    tick: (ms: number) => {
      now += ms;
    },
    add: (names: string[], opts: { size?: number; maxUploadBytes?: number } = {}) =>
      act(() =>
        queue.add(
          names.map((n) => ({ file: new File([new Uint8Array(opts.size ?? 1000)], n, { type: 'image/png' }) })),
          'Assets/images',
          { maxUploadBytes: opts.maxUploadBytes },
        ),
      ),
  };
}

const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name.replace('.', '\\.')},`) });

describe('the upload queue and its tray', () => {
  it('shows each file’s progress, speed and outcome, and links the asset when it is done', async () => {
    const { add, sends, tick } = setup({ [`GET ${META}/a.png`]: missing });
    add(['a.png']);
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]!.request).toMatchObject({ method: 'POST', url: `${META.replace('by-path', 'binary')}/a.png` });
    expect(sends[0]!.request.headers['x-csrf-token']).toBe('token-1');
    expect(sends[0]!.request.body.get('path')).toBe('Assets/images/a.png');

    tick(1000);
    sends[0]!.progress(400, 1000);
    const bar = within(row('a.png')).getByRole('progressbar', { name: 'Uploading a.png' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(row('a.png').textContent).toContain('400 B of 1.0 KB · 400 B/s');
    expect(screen.getByRole('heading', { name: /Uploading 1 file · 400 B\/s/ })).toBeTruthy();

    tick(1000);
    sends[0]!.progress(1000, 1000);
    expect(bar.getAttribute('aria-valuenow')).toBe('100');
    sends[0]!.sent();
    expect(row('a.png').textContent).toContain('Processing on the server');

    act(() => sends[0]!.answer(201, imageAsset('Assets/images/a.png')));
    await waitFor(() => expect(row('a.png').textContent).toContain('Uploaded'));
    expect(within(row('a.png')).getByRole('link', { name: 'a.png' }).getAttribute('href')).toBe(
      '/assets/images?asset=a.png',
    );
    expect(screen.getByRole('heading', { name: '1 uploaded' })).toBeTruthy();
  });

  it('cancels a file midway: the request is aborted and nothing is created', async () => {
    const { add, sends, user, server } = setup({ [`GET ${META}/big.png`]: missing });
    add(['big.png']);
    await waitFor(() => expect(sends).toHaveLength(1));
    sends[0]!.progress(300, 1000);
    await user.click(screen.getByRole('button', { name: 'Cancel big.png' }));
    expect(sends[0]!.signal.aborted).toBe(true);
    await waitFor(() => expect(row('big.png').textContent).toContain('Cancelled — nothing was created'));
    // A late answer of the aborted request changes nothing, and no other request went out.
    act(() => sends[0]!.answer(201, imageAsset('Assets/images/big.png')));
    expect(row('big.png').textContent).toContain('Cancelled');
    expect(sends).toHaveLength(1);
    expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  it('reports a failure in words and sends the file again on Retry', async () => {
    const { add, sends, user } = setup({ [`GET ${META}/a.png`]: missing });
    add(['a.png']);
    await waitFor(() => expect(sends).toHaveLength(1));
    act(() =>
      sends[0]!.answer(415, {
        type: 'about:blank',
        title: 'Unsupported',
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        detail: 'The file is not what its name says.',
      }),
    );
    await waitFor(() => expect(row('a.png').textContent).toContain('Failed — The file is not what its name says.'));

    await user.click(screen.getByRole('button', { name: 'Retry a.png' }));
    await waitFor(() => expect(sends).toHaveLength(2));
    act(() => sends[1]!.answer(201, imageAsset('Assets/images/a.png')));
    await waitFor(() => expect(row('a.png').textContent).toContain('Uploaded'));
  });

  it('refuses a file over the server’s limit before sending anything, naming the limit', async () => {
    const { add, sends, server } = setup();
    add(['huge.png'], { size: 5000, maxUploadBytes: 2000 });
    expect(row('huge.png').textContent).toContain('5.0 KB is over the upload limit of 2.0 KB.');
    expect(sends).toHaveLength(0);
    expect(server.requests).toHaveLength(0);
  });

  it('asks what to do with a taken name; "Keep both" for all gives each file a free name', async () => {
    const taken = (name: string) => () => json(imageAsset(`Assets/images/${name}`), 200, { etag: `"${name}"` });
    const { add, sends, user } = setup({
      [`GET ${META}/a.png`]: taken('a.png'),
      [`GET ${META}/b.png`]: taken('b.png'),
      [`GET ${META}/a-2.png`]: taken('a-2.png'),
      [`GET ${META}/a-3.png`]: missing,
      [`GET ${META}/b-2.png`]: missing,
    });
    add(['a.png', 'b.png']);
    await waitFor(() => expect(row('a.png').textContent).toContain('images already holds a.png'));
    await waitFor(() => expect(row('b.png').textContent).toContain('images already holds b.png'));
    expect(sends).toHaveLength(0);

    const choices = within(row('a.png'));
    await user.click(choices.getByRole('checkbox', { name: /Do the same for the 1 other file/ }));
    await user.click(choices.getByRole('button', { name: 'Keep both' }));
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(sends.map((s) => s.request.url).sort()).toEqual([
      '/cms/rest/assets/binary/Assets/images/a-3.png',
      '/cms/rest/assets/binary/Assets/images/b-2.png',
    ]);
    expect(sends.every((s) => s.request.method === 'POST')).toBe(true);
  });

  it('replaces the asset in place with its ETag, or skips the file, as chosen for each', async () => {
    const { add, sends, user } = setup({
      [`GET ${META}/a.png`]: () => json(imageAsset('Assets/images/a.png'), 200, { etag: '"a-v1"' }),
      [`GET ${META}/b.png`]: () => json(imageAsset('Assets/images/b.png'), 200, { etag: '"b-v1"' }),
      'GET /cms/rest/assets/usage/Assets/images/a.png': () => json({ asset: 'Assets/images/a.png', usedBy: [] }),
    });
    add(['a.png', 'b.png']);
    await waitFor(() => expect(screen.getAllByRole('group', { name: /exists already/ })).toHaveLength(2));
    await user.click(within(row('b.png')).getByRole('button', { name: 'Skip' }));
    expect(row('b.png').textContent).toContain('Skipped');
    await user.click(within(row('a.png')).getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]!.request).toMatchObject({ method: 'PUT', url: '/cms/rest/assets/binary/Assets/images/a.png' });
    expect(sends[0]!.request.headers['if-match']).toBe('"a-v1"');
    act(() => sends[0]!.answer(200, imageAsset('Assets/images/a.png')));
    await waitFor(() => expect(row('a.png').textContent).toContain('Replaced'));
  });

  it('replaces by another kind of file the interface’s way: delete, upload, then restore the fields set', async () => {
    const before = imageAsset('Assets/images/a.png', {
      fields: { displaytitle: 'Our logo', alttext: 'The logo', filename: 'a.png', resource_link_title: null },
    });
    const { add, sends, user, server } = setup({
      [`GET ${META}/a.png`]: () => json(before, 200, { etag: '"a-v1"' }),
      'GET /cms/rest/assets/usage/Assets/images/a.png': () => json({ asset: 'Assets/images/a.png', usedBy: [] }),
      [`DELETE ${META}/a.png`]: () => json({ message: 'Deleted' }),
      [`PUT ${META}/a.png`]: (r) =>
        json({ ...before, fields: { ...before.fields, ...(r.body as { fields: object }).fields } }),
    });
    add(['a.png']);
    await user.click(await within(await waitFor(() => row('a.png'))).findByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    act(() =>
      sends[0]!.answer(409, {
        type: 'about:blank',
        title: 'Conflict',
        status: 409,
        code: 'TYPE_MISMATCH',
        detail: 'An image takes only images.',
      }),
    );
    await waitFor(() => expect(sends).toHaveLength(2));
    expect(sends[1]!.request.method).toBe('POST');
    const deleted = server.requests.find((r) => r.method === 'DELETE')!;
    expect(deleted.headers.get('if-match')).toBe('"a-v1"');
    act(() => sends[1]!.answer(201, imageAsset('Assets/images/a.png')));
    await waitFor(() => expect(row('a.png').textContent).toContain('Uploaded'));
    expect(server.requests.find((r) => r.method === 'PUT')!.body).toEqual({
      fields: { displaytitle: 'Our logo', filename: 'a.png', alttext: 'The logo' },
    });
  });

  it('shows the pages a replace changes, Public ones first in mind, and asks; then offers to review the alt text', async () => {
    const used = imageAsset('Assets/images/a.png', {
      fields: { displaytitle: null, alttext: 'A red bicycle', filename: 'a.png', resource_link_title: null },
    });
    const { add, sends, user } = setup({
      [`GET ${META}/a.png`]: () => json(used, 200, { etag: '"a-v1"' }),
      'GET /cms/rest/assets/usage/Assets/images/a.png': () =>
        json({
          asset: 'Assets/images/a.png',
          usedBy: [
            { path: 'site/home', displayName: 'Home', region: 'main', state: 'Public', href: '/x' },
            { path: 'site/draft', displayName: 'Next', region: 'main', state: 'Draft', href: '/y' },
            // A template's text refers to it too: named, not counted as a page.
            { kind: 'template', path: 'plain', displayName: 'plain', region: 'footer', state: '', href: '/z' },
          ],
        }),
    });
    add(['a.png']);
    await user.click(await within(await waitFor(() => row('a.png'))).findByRole('button', { name: 'Replace' }));
    const question = await screen.findByRole('group', { name: 'Replace a.png?' });
    expect(question.textContent).toContain(
      'a.png is used on 2 pages, 1 of them Public: visitors see the new file at once',
    );
    expect(within(question).getByText('Home').closest('li')!.dataset.public).toBe('true');
    expect(question.textContent).toContain('Template plain');
    expect(sends).toHaveLength(0);
    // Cancel goes back to the choices; nothing was sent.
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await user.click(within(row('a.png')).getByRole('button', { name: 'Replace' }));
    await user.click(await screen.findByRole('button', { name: 'Replace on 2 pages' }));
    await waitFor(() => expect(sends).toHaveLength(1));
    expect(sends[0]!.request.method).toBe('PUT');
    act(() => sends[0]!.answer(200, used));
    const review = await within(row('a.png')).findByRole('link', { name: 'Review the alt text of a.png' });
    expect(review.getAttribute('href')).toBe('/assets/images?asset=a.png&review=alttext');
    expect(row('a.png').textContent).toContain('“A red bicycle”, was written for the old image');
  });
});
