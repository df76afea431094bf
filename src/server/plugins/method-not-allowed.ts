import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * The methods under which some route answers the request's URL (the request's own method has none, or the
 * not-found handler would not be asking): the `Allow` of a 405. Empty when no route has the path at all (a 404).
 * `methods` are the methods any route was registered with.
 */
export function allowedMethodsOf(app: FastifyInstance, methods: Iterable<string>, request: FastifyRequest): string[] {
  const allowed: string[] = [];
  for (const method of methods) {
    if (method === request.method) continue;
    if (app.findRoute({ method: method as 'GET', url: request.url })) allowed.push(method);
  }
  return allowed.sort();
}
