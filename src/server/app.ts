import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BlobStore } from './blobs/blob-store.js';
import { openBlobStore } from './blobs/open-blob-store.js';
import { startOrphanSweeper } from './blobs/orphan-sweep.js';
import { assetsRepository } from './modules/assets/assets.repository.js';
import { startBackgroundWork, type BackgroundWork } from './background.js';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { registerDurableWrites } from './plugins/durable-writes.js';
import { openChangeGeneration, registerChangeGeneration, type ChangeGeneration } from './lib/change-generation.js';
import { trackConnections } from './lib/connections.js';
import type { AppContext } from './lib/context.js';
import type { App } from './lib/http.js';
import { lazyRequestLogger, OneLinePerRequest } from './lib/request-logger.js';
import { isApiUrl, isServiceUrl } from './lib/service-urls.js';
import { registerAssetsRoutes } from './modules/assets/assets.routes.js';
import { createAssetsService } from './modules/assets/assets.service.js';
import { registerAuthRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { registerDocsRoutes } from './modules/docs/docs.routes.js';
import { OPENAPI_TAGS, openApiDocumentTransform, openApiRouteTransform } from './modules/docs/openapi.js';
import { registerFoldersRoutes } from './modules/folders/folders.routes.js';
import { createFoldersService } from './modules/folders/folders.service.js';
import { createEventHub, type EventHub } from './modules/events/events.hub.js';
import { eventsRepository } from './modules/events/events.repository.js';
import { registerEventsRoutes } from './modules/events/events.routes.js';
import { registerHealthRoutes } from './modules/health/health.routes.js';
import { createLeasesService } from './modules/leases/leases.service.js';
import { registerLeasesRoutes } from './modules/leases/leases.routes.js';
import { createSearchService } from './modules/search/search.service.js';
import { registerSearchRoutes } from './modules/search/search.routes.js';
import { registerTrashRoutes } from './modules/trash/trash.routes.js';
import { createTrashService } from './modules/trash/trash.service.js';
import { registerPagesRoutes } from './modules/pages/pages.routes.js';
import { createPagesService } from './modules/pages/pages.service.js';
import { revisionsRepository } from './modules/revisions/revisions.repository.js';
import { registerRevisionsRoutes } from './modules/revisions/revisions.routes.js';
import { createRevisionsService } from './modules/revisions/revisions.service.js';
import { registerTemplatesRoutes } from './modules/templates/templates.routes.js';
import { createTemplatesService } from './modules/templates/templates.service.js';
import { registerUsersRoutes } from './modules/users/users.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { registerAuthentication } from './plugins/authenticate.js';
import { registerJsonParser, registerUnwrapBodies } from './plugins/bodies.js';
import { answerClientError } from './plugins/client-errors.js';
import { allowedMethodsOf } from './plugins/method-not-allowed.js';
import { createInFlight } from './plugins/in-flight.js';
import { registerClaimCheck } from './plugins/claim-check.js';
import { registerProblemHandlers, sendProblem } from './plugins/problems.js';
import { registerResponseCache, type ResponseCache } from './plugins/response-cache.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { seedDemo } from './seed/demo-seed.js';

export interface BuildOptions {
  /** `false` for no logging (tests); otherwise the app builds its logger from the config. */
  logger?: false;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** An API route that answers JSON but through `answerJson` (lib/respond.ts) fails with a 500 (tests). */
  strictAnswers?: boolean;
  /** Sees every response as sent (tests check the JSON ones against the OpenAPI document). */
  onResponseSent?: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;
  /** Clock for sessions and timestamps (tests move it). */
  now?: () => number;
  /** PostgreSQL schema to use (tests isolate each file in its own). */
  pgSchema?: string;
  /** SQLite: how the WAL gets synced before a write is acknowledged (tests slow it down or fail it). */
  walSync?: (fd: number) => Promise<void>;
  /**
   * A 2xx of a `provesActor` route whose claimed caller was neither proven nor confirmed fails (500) instead of
   * being confirmed late (plugins/claim-check.ts). Default: on when NODE_ENV is `test`.
   */
  strictClaims?: boolean;
}

/** What buildApp adds to the Fastify instance, this node's background work (background.ts) included. */
export interface FolioExtras extends BackgroundWork {
  ctx: AppContext;
  /** This node's live event fan-out (modules/events). */
  events: EventHub;
  /** Set when the first start created `admin` with a generated password (printed once by main.ts). */
  generatedAdminPassword?: string;
  /**
   * Every route registered, whether it belongs in the OpenAPI document, and the write protocols its config
   * declares: whether it proves a caller taken on trust (`provesActor`) and bumps the change generation.
   */
  routes: { method: string; url: string; documented: boolean; provesActor: boolean; changesContent: boolean }[];
  /** The response cache (null when CMS_RESPONSE_CACHE=off). */
  responseCache: ResponseCache | null;
}

/** How long a shutdown waits for running requests before it closes the database anyway. */
const SHUTDOWN_DRAIN_MS = 10_000;

/** Builds the whole service: database (migrated), blob store, plugins in a fixed order, routes. Never listens. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<App & { folio: FolioExtras }> {
  const loggerOptions: FastifyServerOptions['logger'] = {
    level: config.logLevel,
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]', 'password', '*.password'],
      censor: '[redacted]',
    },
  };
  const app = Fastify({
    logger: opts.logger === false ? false : { ...loggerOptions, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    bodyLimit: config.maxBodyBytes,
    genReqId: () => randomUUID(),
    childLoggerFactory: lazyRequestLogger,
    logController: new OneLinePerRequest(),
    trustProxy: false,
    routerOptions: { maxParamLength: 2000 },
    // What Node's HTTP parser refuses (headers or URL over the limit: 431) is problem JSON too.
    clientErrorHandler: answerClientError,
    // Errors raised before routing (a malformed percent-encoded URL) are problem JSON too.
    frameworkErrors: (err, _request, reply) => {
      void sendProblem(reply, 400, 'INVALID_PARAMETER', `The request URL is malformed: ${err.message}`);
    },
  }).withTypeProvider<ZodTypeProvider>() as App;

  app.setValidatorCompiler(validatorCompiler);
  const { onResponseSent } = opts;
  if (onResponseSent) {
    // The first onSend hook of every route (the later ones never change a JSON body).
    app.addHook('onSend', async (request, reply, payload) => {
      onResponseSent(request, reply, payload);
      return payload;
    });
  }
  // API routes answer strings (lib/respond.ts answerJson): Fastify's serializer is for what plugins answer.
  app.setSerializerCompiler(({ url }) =>
    opts.strictAnswers && isApiUrl(url)
      ? () => {
          throw new Error(`${url} answered an object: answer JSON through answerJson (lib/respond.ts)`);
        }
      : (data: unknown) => JSON.stringify(data),
  );

  const sqlitePath = path.join(config.dataDir, 'folio.db');
  const database: Database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath,
    pgSchema: opts.pgSchema,
    poolSize: config.dbPoolSize,
    onPoolError: (err) => app.log.error({ err }, 'PostgreSQL connection failed while idle'),
    walSync: opts.walSync,
  });
  let blobs: BlobStore;
  let generation: ChangeGeneration | undefined;
  try {
    await database.migrate();
    for (const warning of await database.settingsWarnings()) app.log.warn(warning);
    generation = openChangeGeneration({ dialect: database.dialect, db: database.db, sqlitePath });
    // A node that crashed between a commit and its bump invalidates every node's caches when it comes back.
    await generation.bump();
    blobs = await openBlobStore(config);
  } catch (err) {
    await generation?.close();
    await database.close();
    throw err;
  }

  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    blobs,
    log: app.log,
    generation,
    now: opts.now ?? Date.now,
  };

  const auth = createAuthService(ctx);
  const users = createUsersService(ctx, auth);
  const admin = await auth.ensureAdmin();

  // Blobs left by a crash between a blob write and its row's commit (or a row's delete and its blob's) go here.
  const sweeper =
    config.blobSweepMs > 0
      ? startOrphanSweeper({
          referencedKeys: () => assetsRepository.blobKeysInUse(database.db),
          blobs,
          intervalMs: config.blobSweepMs,
          log: app.log,
        })
      : null;

  const inFlight = createInFlight();
  app.addHook('onClose', async () => {
    await sweeper?.stop();
    // Handlers whose client hung up may still be writing: the database closes after them.
    if (!(await inFlight.drained(SHUTDOWN_DRAIN_MS))) {
      app.log.warn({ inFlight: inFlight.count }, 'closing the database with requests still running');
    }
    await generation.close();
    await database.close();
    await blobs.close?.();
  });

  const routes: FolioExtras['routes'] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = route.schema as { hide?: boolean } | undefined;
    const documented = isApiUrl(route.url);
    const provesActor = route.config?.provesActor === true;
    const changesContent = route.config?.changesContent !== false;
    for (const method of methods) {
      const listed = documented && !schema?.hide && method !== 'HEAD';
      routes.push({ method, url: route.url, documented: listed, provesActor, changesContent });
    }
  });

  await app.register(fastifyCookie);
  registerProblemHandlers(app);
  registerClaimCheck(app, opts.strictClaims ?? process.env.NODE_ENV === 'test');
  registerSecurityHeaders(app);
  registerJsonParser(app);
  registerUnwrapBodies(app);

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Folio content management REST interface',
        version: '1.0.0',
        description:
          'Pages, sites, folders, sections, links and assets, addressed by path. Errors are RFC 9457 problem details.',
        contact: { name: 'Folio' },
      },
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic' },
          session: { type: 'apiKey', in: 'cookie', name: 'folio_session' },
        },
      },
      security: [{ basic: [] }, { session: [] }],
      servers: [{ url: '/', description: 'The server that serves this document' }],
    },
    transform: openApiRouteTransform,
    transformObject: (doc) => openApiDocumentTransform(doc as never) as never,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { url: '/cms/rest/openapi.json', validatorUrl: null } as never,
  });

  registerChangeGeneration(app, generation);
  // After the generation bump (an onSend hook too): one sync covers the handler's commits and the bump.
  registerDurableWrites(app, database);
  // After the bump and the sync (its onSend hook ends a request's work), before authentication (which reads).
  inFlight.register(app);
  registerAuthentication(app, auth, {
    generationCostsAQuery: generation.readCostsAQuery,
    responseCacheOn: config.responseCache,
  });
  // After authentication: the cache key holds the caller's role.
  const responseCache = registerResponseCache(app, {
    enabled: config.responseCache,
    maxBytes: config.responseCacheBytes,
    maxAgeMs: config.responseCacheMaxAgeMs,
    now: ctx.now,
  });

  registerHealthRoutes(app, database);
  const events = createEventHub(ctx);
  // Before the server stops taking connections: open streams end, so the close does not wait on them. A
  // connection with no request running would hold the close open until its keep-alive or headers timeout (one
  // whose response, a stream just ended or a request still running, finishes later; one that never sent a
  // request), so those are closed until the close is done.
  const connections = trackConnections(app.server);
  let closingIdle: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closingIdle = setInterval(() => connections.closeUnused(), 100);
    closingIdle.unref();
    await events.close();
  });
  app.addHook('onClose', async () => clearInterval(closingIdle));
  registerEventsRoutes(app, events);
  registerDocsRoutes(app);
  const leases = createLeasesService(ctx);
  registerAuthRoutes(
    app,
    auth,
    config,
    (username) => leases.endAllOf(username),
    () => eventsRepository.lastId(ctx.db),
  );
  registerUsersRoutes(app, users);
  // ── Resource modules: each registers its routes here (services are built from ctx). ──
  registerLeasesRoutes(app, leases);
  registerSearchRoutes(app, createSearchService(ctx));
  const assets = createAssetsService(ctx);
  const pages = createPagesService(ctx);
  await revisionsRepository.setRetention(ctx.db, config.revisionsKeep);
  const versions = registerRevisionsRoutes(app, createRevisionsService(ctx, { pages, assets }));
  await registerAssetsRoutes(app, assets, config, versions.assets);
  const folders = createFoldersService(ctx);
  registerFoldersRoutes(app, folders);
  registerTemplatesRoutes(app, createTemplatesService(ctx));
  registerPagesRoutes(app, pages, versions.pages);
  const trash = createTrashService(ctx);
  registerTrashRoutes(app, trash);
  // Moves and renames of pages and assets check If-Match against the ETag of the item's own GET.
  const pageEtags = createPagesService(ctx);
  folders.useEtagSource('page', async (actor, segments) => (await pageEtags.get(actor, segments)).etag);
  const assetEtags = createAssetsService(ctx);
  folders.useEtagSource('asset', async (actor, segments) => (await assetEtags.get(actor, segments)).etag);

  await registerSpa(app, config.webDir, routes);

  const background = startBackgroundWork(app, ctx, { pages: pageEtags, assets: assetEtags, trash });

  if (config.seed) {
    await app.ready();
    if (await seedDemo(app, auth, ctx.db)) app.log.info('seeded the demo site');
  }

  const extras: FolioExtras = {
    ctx,
    events,
    generatedAdminPassword: admin.generatedPassword,
    routes,
    responseCache,
    ...background,
  };
  return Object.assign(app, { folio: extras });
}

/**
 * Serves the built SPA: hashed assets cached for good, index.html for every other non-API GET (deep links). Any
 * other request no route answers is a 405 with `Allow` when its path has routes under other methods, else a 404.
 */
async function registerSpa(app: App, webDir: string, routes: FolioExtras['routes']) {
  const index = path.join(webDir, 'index.html');
  const hasSpa = fs.existsSync(index);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (scripts/precompress.ts); browsers that accept one get it.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0]!;
    if (hasSpa && !isServiceUrl(url) && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    const allow = allowedMethodsOf(app, new Set(routes.map((r) => r.method)), request);
    if (allow.length > 0) {
      void reply.header('allow', allow.join(', '));
      const detail = `${request.method} is not allowed on ${url}: it answers ${allow.join(', ')}.`;
      return sendProblem(reply, 405, 'METHOD_NOT_ALLOWED', detail);
    }
    return sendProblem(reply, 404, 'NOT_FOUND', `No route for ${request.method} ${url}.`);
  });
}
