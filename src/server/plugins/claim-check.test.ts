import Fastify, { type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../lib/context.js';
import { registerClaimCheck } from './claim-check.js';
import { registerProblemHandlers } from './problems.js';

/**
 * A route that takes its caller on trust (config.provesActor) and answers 2xx without proving or confirming the
 * claim: the hook either fails it loudly (tests) or confirms the caller before the answer goes out.
 */
async function appWith(strict: boolean, settle: 'nothing' | 'proven' | 'confirmed', confirmsAs: Actor | null) {
  const app = Fastify({ logger: false });
  app.decorateRequest('actorClaim', null);
  registerProblemHandlers(app);
  registerClaimCheck(app, strict);
  const confirmed: string[] = [];
  app.addHook('onRequest', async (request: FastifyRequest) => {
    request.actorClaim = {
      username: 'ed',
      role: 'Editor',
      proof: { condition: 'true', values: [] },
      proven: () => {
        request.actorClaim = null;
      },
      confirm: async () => {
        request.actorClaim = null;
        confirmed.push(request.url);
        if (!confirmsAs) throw Object.assign(new Error('no longer'), { statusCode: 401 });
        return confirmsAs;
      },
    };
  });
  app.put('/cms/rest/thing', { config: { provesActor: true } }, async (request) => {
    if (settle === 'proven') request.actorClaim!.proven();
    if (settle === 'confirmed') await request.actorClaim!.confirm();
    return { ok: true };
  });
  await app.ready();
  return { app, confirmed };
}

const ED: Actor = { username: 'ed', role: 'Editor' };

describe('the actor proof of provesActor routes', () => {
  it('fails a 2xx whose claim was neither proven nor confirmed, in tests', async () => {
    const { app } = await appWith(true, 'nothing', ED);
    const res = await app.inject({ method: 'PUT', url: '/cms/rest/thing' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
    await app.close();
  });

  it('answers a claim proven by the write, or confirmed, as it is', async () => {
    for (const settle of ['proven', 'confirmed'] as const) {
      const { app } = await appWith(true, settle, ED);
      const res = await app.inject({ method: 'PUT', url: '/cms/rest/thing' });
      expect(res.statusCode, settle).toBe(200);
      expect(res.json()).toEqual({ ok: true });
      await app.close();
    }
  });

  it('outside tests, confirms an open claim before answering: 401 when the credentials no longer hold', async () => {
    const held = await appWith(false, 'nothing', ED);
    expect((await held.app.inject({ method: 'PUT', url: '/cms/rest/thing' })).statusCode).toBe(200);
    expect(held.confirmed).toEqual(['/cms/rest/thing']);
    await held.app.close();
    const gone = await appWith(false, 'nothing', null);
    const res = await gone.app.inject({ method: 'PUT', url: '/cms/rest/thing' });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('ok');
    await gone.app.close();
  });
});
