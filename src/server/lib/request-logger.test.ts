import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger.js';

function parentAt(level: string) {
  const lines: Record<string, unknown>[] = [];
  // Fastify's own pino logger, as the app builds it.
  const parent = Fastify({
    logger: { level, stream: { write: (s: string) => lines.push(JSON.parse(s) as Record<string, unknown>) } },
  }).log;
  const child = vi.spyOn(parent, 'child');
  return { parent, lines, child };
}

describe('lazyRequestLogger', () => {
  it('makes no child for lines its level filters out, and writes the others with the request id', () => {
    const { parent, lines, child } = parentAt('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    log.info('incoming request');
    log.debug({ a: 1 }, 'detail');
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);

    log.warn({ code: 'X' }, 'write refused');
    log.error(new Error('boom'), 'unhandled error');
    expect(child).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => [l.level, l.reqId, l.msg])).toEqual([
      [40, 'r-1', 'write refused'],
      [50, 'r-1', 'unhandled error'],
    ]);
    expect(lines[0]!.code).toBe('X');
    expect((lines[1]!.err as { message: string }).message).toBe('boom');
  });

  it("follows the parent's level when it changes at run time", () => {
    const { parent, lines } = parentAt('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {});
    expect(log.level).toBe('warn');
    parent.level = 'info';
    log.info('now written');
    expect(lines.map((l) => [l.reqId, l.msg])).toEqual([['r-2', 'now written']]);
  });

  it('keeps the request id on grandchildren, and routes with their own level get a real child', () => {
    const { parent, lines, child } = parentAt('info');
    lazyRequestLogger(parent, { reqId: 'r-3' }, {}).child({ part: 'upload' }).info('stored');
    expect(lines.at(-1)).toMatchObject({ reqId: 'r-3', part: 'upload', msg: 'stored' });

    child.mockClear();
    const own = lazyRequestLogger(parent, { reqId: 'r-4' }, { level: 'error' });
    expect(child).toHaveBeenCalledWith({ reqId: 'r-4' }, { level: 'error' });
    own.warn('filtered by the route level');
    expect(lines.some((l) => l.reqId === 'r-4')).toBe(false);
  });
});
