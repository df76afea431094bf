import http from 'node:http';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ProblemDetails } from '../../../shared/api/errors.js';

/** The operations' tags, in the order the document lists them (every route names one). */
export const OPENAPI_TAGS = [
  { name: 'health', description: 'Whether the service is ready (no credentials)' },
  { name: 'auth', description: 'Signing in and out, the signed-in user and their own password' },
  { name: 'users', description: 'User accounts and their roles (admins)' },
  {
    name: 'folders',
    description:
      'Sites, folders, sections, section links, external links and asset folders by path; the site list; finding ' +
      'items; moving, copying and renaming any item',
  },
  { name: 'templates', description: "Templates: a page's regions and the widgets fixed in them" },
  { name: 'pages', description: 'Pages by path: fields, body regions and widgets, workflow' },
  { name: 'assets', description: 'The asset library: files and other assets by path, uploads, downloads, workflow' },
  { name: 'events', description: 'Live events: every change, as it happens (Server-Sent Events)' },
  { name: 'leases', description: 'Check-out leases of pages and assets, and who has an item open (presence)' },
  { name: 'search', description: 'Full-text search of pages, assets and folder items' },
  { name: 'trash', description: 'Deleted items: the list, restore, and deleting for good' },
];

/** The name of the one path parameter of every by-path route (registered as `<prefix>/*`). */
export const ITEM_PATH_PARAM = 'path';

const ITEM_PATH_DESCRIPTION =
  'The item path `<site>/<folders…>/<name>` (asset library: `Assets/<folders…>/<name>`). Its slashes may be sent ' +
  'as they are or percent-encoded (`%2F`); each name is percent-decoded.';

const PROBLEM_STATUSES = ['400', '401', '403', '404', '409', '412', '413', '415', '416', '429', '431', '500', '503'];
/** Methods whose requests may carry a body (Fastify parses one on each: 413 and 415 can answer them all). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type TransformInput = Parameters<typeof jsonSchemaTransform>[0] & {
  route: {
    config?: { multipartBody?: Record<string, unknown>; openApiResponses?: Record<string, Record<string, unknown>> };
  };
};
type Json = Record<string, unknown>;

/**
 * The OpenAPI path of a route: `<prefix>/*` becomes `<prefix>/{path}` (a named parameter that generated clients
 * fill), `:name` becomes `{name}`.
 */
export function openApiPath(url: string): string {
  return url.replace(/\/\*$/, `/{${ITEM_PATH_PARAM}}`).replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/**
 * A stable operationId from the method and the route (`GET /cms/rest/pages/by-path/*` → `getPagesByPath`,
 * `PUT /cms/rest/users/:username` → `putUsersByUsername`). A route may set its own `operationId`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/cms\/rest\//, '/')
    .split('/')
    .filter((s) => s.length > 0 && s !== '*')
    .flatMap((s) => (s.startsWith(':') ? ['by', s.slice(1)] : s.split(/[-.]/)))
    .filter((w) => w !== 'json');
  const camel = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return `${method.toLowerCase()}${camel}`;
}

/**
 * @fastify/swagger's per-route transform: zod schemas to JSON Schema, by-path routes with their named path
 * parameter, an operationId, and a multipart route's form (config.multipartBody) as its request body.
 */
export function openApiRouteTransform(input: TransformInput) {
  const out = jsonSchemaTransform(input);
  const schema: Json = { ...(out.schema as Json) };
  const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
  schema.operationId ??= operationIdOf(method, input.url);
  if (input.url.endsWith('/*')) {
    schema.params = {
      type: 'object',
      properties: { [ITEM_PATH_PARAM]: { type: 'string', description: ITEM_PATH_DESCRIPTION } },
      required: [ITEM_PATH_PARAM],
    };
  }
  const form = input.route.config?.multipartBody;
  if (form) schema.body = form;
  const responses = input.route.config?.openApiResponses;
  if (responses) schema.response = { ...((schema.response as Json | undefined) ?? {}), ...responses };
  if (input.url.startsWith('/cms/rest/')) {
    const response = { ...((schema.response as Json | undefined) ?? {}) };
    if (BODY_METHODS.has(method)) {
      // Any body can be too large or of a type the route does not take (the problem handlers answer both).
      response['413'] ??= { description: 'Problem details (413): the body is too large' };
      response['415'] ??= { description: 'Problem details (415): the body is of a type this route does not take' };
    }
    // Node's HTTP parser refuses a request line and headers over its limit before any route sees them: a long
    // query (a `cursor` past its maxLength answers 400 as long as the whole fits) is one way to get there.
    response['431'] ??= {
      description:
        `Problem details (431 HEADERS_TOO_LARGE): the request line (URL with its query) and the headers are over ` +
        `${http.maxHeaderSize} bytes together`,
    };
    // Never for anything a client sent: a fault of the server (500) or of its storage (503 STORAGE_UNAVAILABLE).
    response['500'] ??= { description: 'Problem details (500): a fault of the server' };
    response['503'] ??= { description: 'Problem details (503): the storage failed to confirm a write' };
    schema.response = response;
  }
  return { ...out, url: openApiPath(input.url), schema };
}

/**
 * Whole-document fixes after @fastify/swagger built it: one `ProblemDetails` component that every error response
 * refers to as `application/problem+json`, and `servers`.
 */
export function openApiDocumentTransform({ openapiObject }: { openapiObject: Json }): Json {
  const doc = structuredClone(openapiObject) as Json & { paths?: Record<string, Record<string, Json>> };
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!path.startsWith('/cms/rest/')) continue;
    for (const op of Object.values(item)) {
      const responses = (op.responses ?? {}) as Record<string, Json>;
      for (const [status, response] of Object.entries(responses)) {
        if (!PROBLEM_STATUSES.includes(status)) continue;
        responses[status] = {
          description: (response.description as string | undefined) ?? `Problem details (${status})`,
          ...(response.headers ? { headers: response.headers } : {}),
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } } },
        };
      }
    }
  }
  const components = (doc.components ?? {}) as Json;
  const problem = z.toJSONSchema(ProblemDetails, { target: 'draft-2020-12', io: 'output' }) as Json;
  delete problem.$schema;
  components.schemas = { ...((components.schemas as Json | undefined) ?? {}), ProblemDetails: problem };
  doc.components = components;
  return doc;
}
