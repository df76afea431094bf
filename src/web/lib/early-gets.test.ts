import { describe, expect, it, vi } from 'vitest';
import { earlyGets } from './early-gets';

const answer = (body: string) => new Response(body, { status: 200 });

describe('earlyGets', () => {
  it('hands an answer started early to the first plain GET of the same URL, once', async () => {
    const fetchImpl = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => answer(String(input)));
    const early = earlyGets(fetchImpl as typeof fetch);
    early.start('/cms/rest/pages/by-path/demo/a');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(new Headers(fetchImpl.mock.calls[0]![1]!.headers).get('x-requested-with')).toBe('XMLHttpRequest');

    const first = await early.fetch('/cms/rest/pages/by-path/demo/a', { method: 'GET', headers: new Headers() });
    expect(await first.text()).toBe('/cms/rest/pages/by-path/demo/a');
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    // The next GET of it is a request of its own (a refetch must not get the old answer).
    await early.fetch('/cms/rest/pages/by-path/demo/a', { method: 'GET' });
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('sends other URLs, other methods and conditional GETs as they are', async () => {
    const fetchImpl = vi.fn(async () => answer('own'));
    const early = earlyGets(fetchImpl as typeof fetch);
    early.start('/a');
    await early.fetch('/b', { method: 'GET' });
    await early.fetch('/a', { method: 'PUT', body: '{}' });
    await early.fetch('/a', { method: 'GET', headers: { 'if-none-match': '"v1"' } });
    expect(fetchImpl).toHaveBeenCalledTimes(4);
    // Still there for the plain GET.
    await early.fetch('/a', { method: 'GET' });
    expect(fetchImpl).toHaveBeenCalledTimes(4);
  });

  it('leaves a failure of an answer nobody took unreported, and gives it to the one who takes it', async () => {
    const failed = new TypeError('offline');
    const fetchImpl = vi.fn(() => Promise.reject(failed));
    const early = earlyGets(fetchImpl as typeof fetch);
    early.start('/a');
    await expect(early.fetch('/a', { method: 'GET' })).rejects.toBe(failed);
  });
});
