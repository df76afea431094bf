import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { answerJson, type SerialisedJson } from '../lib/respond.js';
import { actorOf } from '../lib/http.js';
import { itemPathOf } from '../modules/tree/paths.js';

/**
 * Routes with `config.byPathRead` try its `now` in `onRequest`, after authentication and the response cache's lookup (a
 * hit never gets here), before validation and the handler: a GET of a page whose stored representation is
 * trusted is then one synchronous indexed read on SQLite (pages.service getNow), as cheap as the cache's own
 * path. Undefined from it lets the request take its route's ordinary way, which answers everything else (and the
 * precise 4xx). `onSend` hooks run as for any answer: the response cache stores it, If-None-Match gets its 304.
 *
 * Register after the response cache: route hooks added on `onRoute` run in the order they were added.
 */
export function registerAnswerNow(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const read = route.config?.byPathRead;
    if (!read) return;
    const onRequest: onRequestHookHandler = function (request, reply, done) {
      let answer: SerialisedJson | undefined;
      try {
        answer = read.now(actorOf(request), itemPathOf(request));
      } catch (err) {
        return done(err as Error);
      }
      if (!answer) return done();
      void reply.send(answerJson(reply, answer));
    };
    const own =
      route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, onRequest];
  });
}
