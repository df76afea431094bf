import type { FastifyInstance, onSendHookHandler } from 'fastify';

/**
 * The actor proof of `config.provesActor` routes, held for every answer: a route that takes its caller on trust
 * (ActorClaim) must prove the claim in the statement that reads or writes (`claim.proven()`) or confirm it
 * (`claim.confirm()`) before it answers. A 2xx that leaves the claim open is a route that forgot: in tests
 * (`strict`) it fails with a 500 naming the route; otherwise the claim is confirmed before the answer goes out
 * (401 when the credentials no longer hold). Error answers are confirmed by the error handler (problems.ts).
 */
export function registerClaimCheck(app: FastifyInstance, strict: boolean) {
  // Callback-style: a request without a claim (most) passes through without a promise tick.
  const onSend: onSendHookHandler = function (request, reply, payload, done) {
    const claim = request.actorClaim;
    if (!claim || reply.statusCode < 200 || reply.statusCode >= 300) return done(null, payload);
    if (strict) {
      const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
      return done(
        new Error(`${route} answered ${reply.statusCode} with its claimed caller neither proven nor confirmed`),
      );
    }
    claim.confirm().then(
      () => done(null, payload),
      (err: Error) => done(err),
    );
  };
  app.addHook('onSend', onSend);
}
