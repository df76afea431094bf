import type { FastifyInstance, onSendHookHandler } from 'fastify';
import { isApiUrl } from '../lib/service-urls.js';

/**
 * CSP for everything the server sends: no inline script anywhere; styles may be inline (React style props
 * and the accessibility library set them); images from the service itself, data: and blob: (thumbnails, previews).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every response carries, whatever the route. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** The headers of an API answer written outside Fastify's reply (a request Node's HTTP parser refused). */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  ...SECURITY_HEADERS,
  'cache-control': 'no-store',
};

/**
 * Security headers on every response; `Cache-Control: no-store` on the API. A callback-style hook (no promise
 * tick): it runs on every response, cache hits included.
 */
export function registerSecurityHeaders(app: FastifyInstance) {
  const onSend: onSendHookHandler = function (request, reply, payload, done) {
    // A route may send a CSP of its own (the API docs page does).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.headers(SECURITY_HEADERS);
    if (isApiUrl(request.url)) reply.header('cache-control', 'no-store');
    done(null, payload);
  };
  app.addHook('onSend', onSend);
}
