import type { FastifyInstance } from 'fastify';

/**
 * CSP for everything the server sends: no inline script anywhere; styles may be inline (React style props
 * and the accessibility library set them); images from the service itself, data: and blob: (thumbnails, previews).
 */
export const CONTENT_SECURITY_POLICY = [
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

/** Security headers on every response; `Cache-Control: no-store` on the API. */
export function registerSecurityHeaders(app: FastifyInstance) {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('cross-origin-resource-policy', 'same-origin');
    if (request.url.startsWith('/cms/') || request.url.startsWith('/healthz')) {
      reply.header('cache-control', 'no-store');
    }
    return payload;
  });
}
