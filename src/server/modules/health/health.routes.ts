import { z } from 'zod';
import type { Database } from '../../db/database.js';
import type { App } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';

const Health = z.object({ status: z.enum(['ok', 'unavailable']) });

/** GET /healthz: 200 once migrations have run and the database answers; 503 otherwise. No credentials. */
export function registerHealthRoutes(app: App, database: Database) {
  app.get(
    '/healthz',
    {
      config: { public: true },
      schema: {
        tags: ['health'],
        summary: 'Readiness',
        description:
          '200 `{status: "ok"}` once migrations have run and the database answers, 503 `{status: ' +
          '"unavailable"}` otherwise. Needs no credentials: for load balancers and orchestrators.',
        security: [],
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      const ok = await database.ping();
      return answerJson<z.infer<typeof Health>>(
        reply,
        { value: { status: ok ? 'ok' : 'unavailable' } },
        ok ? 200 : 503,
      );
    },
  );
}
