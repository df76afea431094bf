import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { etagOf } from '../lib/etag.js';
import addFormatsModule from 'ajv-formats';
import { openApiPath } from '../modules/docs/openapi.js';

// ajv-formats is CommonJS with its function as the default export.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface OpenApiDoc {
  components?: Record<string, unknown>;
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: object }> }> }>
  >;
}

/** One response as the server sent it. */
export interface SentResponse {
  method: string;
  /** The route as registered (`/cms/rest/pages/by-path/*`); undefined when no route matched. */
  route: string | undefined;
  status: number;
  contentType: string;
  /** The `etag` header sent, if any. */
  etag?: string;
  /** Set on file downloads (`content-disposition`): their bytes and ETag are the file's. */
  download?: boolean;
  body: string;
}

/**
 * Checks JSON responses against the schema the OpenAPI document declares for their route, status and content type
 * (every body the server sends, as sent), and that they went out through `answerJson` (lib/respond.ts): a 2xx
 * JSON answer of a GET carries the strong ETag of exactly its bytes, and a write's ETag, when it sends one, is
 * that of its bytes too (but a page PUT's note of the regions a template switch dropped, which is no part of the
 * page). Answers a description of each mismatch, or null when the response matches.
 */
export function responseChecker(documentJson: string): (r: SentResponse) => string | null {
  // Every test app serves the same document: its compiled schemas are shared (compiling them is most of a small
  // test's time).
  let checker = checkers.get(documentJson);
  if (!checker) checkers.set(documentJson, (checker = newChecker(documentJson)));
  return checker;
}

const checkers = new Map<string, (r: SentResponse) => string | null>();

function newChecker(documentJson: string) {
  const doc = JSON.parse(documentJson) as OpenApiDoc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction | null>();

  function validatorFor(path: string, method: string, status: number, type: string): ValidateFunction | string {
    const op = doc.paths[path]?.[method];
    if (!op) return `${method.toUpperCase()} ${path} is not in the document`;
    const response = op.responses?.[String(status)] ?? op.responses?.[`${String(status)[0]}XX`];
    if (!response) return `${method.toUpperCase()} ${path} does not declare status ${status}`;
    // A media range (`application/*`, `*/*`: a file of its own type) covers the types in it.
    const content = response.content ?? {};
    const media = content[type] ?? content[`${type.split('/')[0]}/*`] ?? content['*/*'];
    if (!media?.schema) return `${method.toUpperCase()} ${path} ${status} does not declare ${type}`;
    // A file's bytes: any JSON file is one.
    const schema = (media.schema as { format?: string }).format === 'binary' ? {} : media.schema;
    const key = `${method} ${path} ${status} ${type}`;
    let fn = compiled.get(key);
    if (fn === undefined) {
      // The schema's $refs point into the document's components: give it them at its root.
      fn = ajv.compile({ ...schema, components: doc.components });
      compiled.set(key, fn);
    }
    return fn!;
  }

  return (r: SentResponse): string | null => {
    const type = r.contentType.split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json' && type !== 'application/problem+json') return null;
    // Answers outside any documented route (no route matched, the SPA, the document itself) have no schema.
    if (!r.route || !r.route.startsWith('/cms/rest/') || r.route === '/cms/rest/openapi.json') return null;
    const method = r.method.toLowerCase();
    if (method === 'head') return null;
    const check = validatorFor(openApiPath(r.route), method, r.status, type);
    if (typeof check === 'string') return `${check}; body: ${r.body.slice(0, 300)}`;
    let body: unknown;
    try {
      body = JSON.parse(r.body);
    } catch {
      return `${r.method} ${r.route} ${r.status}: the body is not JSON: ${r.body.slice(0, 300)}`;
    }
    if (!check(body)) {
      const errors = (check.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
      return `${r.method} ${r.route} ${r.status} does not match its schema: ${errors}; body: ${r.body.slice(0, 300)}`;
    }
    return etagMismatch(r, type, body);
  };
}

/** Why a JSON answer's ETag is not that of its bytes (it did not go out through `answerJson`), or null. */
function etagMismatch(r: SentResponse, type: string, body: unknown): string | null {
  if (type !== 'application/json' || r.status < 200 || r.status >= 300 || r.download) return null;
  const where = `${r.method} ${r.route} ${r.status}`;
  if (r.etag === undefined) return r.method === 'GET' ? `${where} has no ETag: answer through answerJson` : null;
  if (r.etag === etagOf(r.body)) return null;
  const note = r.method === 'PUT' && typeof body === 'object' && body !== null && 'droppedRegions' in body;
  return note ? null : `${where} sent an ETag (${r.etag}) that is not of its bytes: answer through answerJson`;
}
