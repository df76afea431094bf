import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ErrorCode } from '../../shared/api/errors.js';
import { PROBLEM_TYPE } from '../lib/respond.js';
import { problemBody } from './problems.js';
import { API_HEADERS } from './security-headers.js';

type ClientError = Error & { code?: string };

/** The answer to a request Node's HTTP parser refused before any route saw it. */
function answerOf(err: ClientError): [status: number, code: ErrorCode, detail: string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        'HEADERS_TOO_LARGE',
        // http.maxHeaderSize: Node's limit (16 KiB unless --max-http-header-size says otherwise).
        `The request line and headers are larger than ${http.maxHeaderSize} bytes together (a long URL or query ` +
          'counts): send less, e.g. a shorter query.',
      ];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'REQUEST_TIMEOUT', 'The request did not arrive whole in time.'];
    default:
      return [400, 'MALFORMED_REQUEST', 'The request is not a well-formed HTTP request.'];
  }
}

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses (a request line and headers over the limit,
 * a timeout, bytes that are not HTTP) is answered as problem+json like every other error, then the connection
 * closes. Fastify's default answers these with a JSON body of another shape.
 */
export function answerClientError(this: FastifyInstance, err: ClientError, socket: Socket): void {
  // A reset connection, or one already gone, has no one to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, detail] = answerOf(err);
  this.log.debug({ err }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(problemBody(status, code, detail));
    const headers = {
      ...API_HEADERS,
      'content-type': PROBLEM_TYPE,
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${head}\r\n${body}`);
  }
  socket.destroy(err);
}
