import { z } from 'zod';
import { LeaseBody, LeaseKind, LeaseState } from '../../../shared/api/leases.js';
import { answerJson } from '../../lib/respond.js';
import { actorOf, type App, problems } from '../../lib/http.js';
import { itemPathOf } from '../tree/paths.js';
import type { LeasesService } from './leases.service.js';

const PathParams = z.object({ '*': z.string() });

/** How often each node ends the leases that ran out (`leasesRepository.sweep`). */
export const LEASE_SWEEP_MS = 15_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** Ends the leases that ran out now; answers how many items changed. */
    sweepLeases(): Promise<number>;
  }
}

/**
 * `/cms/rest/leases/{page|asset}/{path}`: GET the lease and who has the item open, POST the heartbeat (take,
 * renew or take over the lease; or only say the caller has it open), DELETE when the caller leaves. Also runs the
 * sweep that ends leases which ran out (every LEASE_SWEEP_MS on every node; `app.sweepLeases()` runs it at once),
 * stopped when the app closes.
 */
export function registerLeasesRoutes(app: App, leases: LeasesService) {
  const sweep = () => leases.sweep();
  app.decorate('sweepLeases', sweep);
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => app.log.warn({ err }, 'lease sweep failed'));
  }, LEASE_SWEEP_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  for (const kind of LeaseKind.options) {
    const url = `/cms/rest/leases/${kind}/*`;
    const what = kind === 'page' ? 'a page' : 'an asset';
    app.get(
      url,
      {
        schema: {
          tags: ['leases'],
          summary: `The check-out lease of ${what} and who else has it open`,
          description:
            'The live lease (who holds it, since when, until when unless renewed) and the people who have the item ' +
            'open now, the caller left out. Leases and presence end by time; nothing needs releasing.',
          params: PathParams,
          response: { 200: LeaseState, ...problems(403, 404) },
        },
      },
      async (request, reply) =>
        answerJson<LeaseState>(reply, { value: await leases.state(actorOf(request), kind, itemPathOf(request)) }),
    );
    app.post(
      url,
      {
        schema: {
          tags: ['leases'],
          summary: `Take, renew or take over the check-out lease of ${what}; the presence heartbeat`,
          description:
            '`mode: "edit"` (WRITE access) takes the lease when it is free, renews it when the caller holds it, ' +
            'and answers 409 `LEASE_HELD` naming the holder when someone else does, unless `takeover` is true ' +
            '(the holder then learns it at their next renewal: 409 with `lease.takenFrom` naming them). ' +
            `\`mode: "view"\` (READ) only says the caller has the item open. Either renews the caller's presence ` +
            '(about 75 s); editors call it every 30 s. A lease ends `CMS_LEASE_SECONDS` (120) after its last renewal.',
          params: PathParams,
          body: LeaseBody,
          response: { 200: LeaseState, ...problems(403, 404, 409) },
        },
      },
      async (request, reply) =>
        answerJson<LeaseState>(reply, {
          value: await leases.beat(actorOf(request), kind, itemPathOf(request), request.body as LeaseBody),
        }),
    );
    app.delete(
      url,
      {
        schema: {
          tags: ['leases'],
          summary: `Leave ${what}: end the caller's lease (if theirs) and presence`,
          description:
            "Releases the lease when the caller holds it (someone else's stays) and ends the caller's presence. " +
            'Browsers call it when the editor closes (a `keepalive` fetch on `pagehide`).',
          params: PathParams,
          response: { 200: LeaseState, ...problems(403, 404) },
        },
      },
      async (request, reply) =>
        answerJson<LeaseState>(reply, { value: await leases.leave(actorOf(request), kind, itemPathOf(request)) }),
    );
  }
}
