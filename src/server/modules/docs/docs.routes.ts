import type { App } from '../../lib/http.js';
import { answerJson } from '../../lib/respond.js';

/** GET /cms/rest/openapi.json: the OpenAPI 3 document of every route (rendered at /docs). */
export function registerDocsRoutes(app: App) {
  app.get('/cms/rest/openapi.json', { schema: { hide: true } }, async (_request, reply) =>
    answerJson(reply, { value: app.swagger() }),
  );
}
