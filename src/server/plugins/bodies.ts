import type { FastifyInstance } from 'fastify';

/** Wrapper keys the reference system puts around bodies: `{"Page": {…}}` and the like. */
const WRAPPERS = new Set(['Page', 'Folder', 'Asset', 'Site', 'Section']);

/**
 * JSON bodies: Fastify's parser (with prototype-poisoning protection), except that an empty body is "no body"
 * (a folder PUT may be sent without one) rather than an error.
 */
export function registerJsonParser(app: FastifyInstance) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (typeof body === 'string' && body.trim() === '') return done(null, undefined);
    parse(request, body as string, done);
  });
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Unwraps `{"Page": {…}}`, `{"Folder": {…}}`, `{"Asset": {…}}` before validation. Callback-style: it runs on
 * every request, and an async hook would cost each one a promise tick.
 */
export function registerUnwrapBodies(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    const body = request.body;
    if (isPlainObject(body)) {
      const keys = Object.keys(body);
      if (keys.length === 1 && WRAPPERS.has(keys[0]!) && isPlainObject(body[keys[0]!])) {
        request.body = body[keys[0]!];
      }
    }
    done();
  });
}
