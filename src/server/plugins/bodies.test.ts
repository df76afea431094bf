import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerJsonParser, registerUnwrapBodies } from './bodies.js';

async function echoApp() {
  const app = Fastify();
  registerJsonParser(app);
  registerUnwrapBodies(app);
  app.put('/echo', async (request) => ({ body: request.body ?? null }));
  await app.ready();
  return app;
}

describe('request bodies', () => {
  it('unwraps the reference system wrappers before validation', async () => {
    const app = await echoApp();
    for (const key of ['Page', 'Folder', 'Asset']) {
      const res = await app.inject({ method: 'PUT', url: '/echo', payload: { [key]: { name: 'x', n: 1 } } });
      expect(res.json(), key).toEqual({ body: { name: 'x', n: 1 } });
    }
    // Not a wrapper: other keys, more than one key, or a non-object value stay as they are.
    const other = await app.inject({ method: 'PUT', url: '/echo', payload: { Page: { a: 1 }, extra: true } });
    expect(other.json()).toEqual({ body: { Page: { a: 1 }, extra: true } });
    const scalar = await app.inject({ method: 'PUT', url: '/echo', payload: { Page: 'text' } });
    expect(scalar.json()).toEqual({ body: { Page: 'text' } });
    await app.close();
  });

  it('treats an empty JSON body as no body', async () => {
    const app = await echoApp();
    const res = await app.inject({
      method: 'PUT',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ body: null });
    await app.close();
  });
});
