import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ItemKind } from '../../../shared/api/folders.js';
import { PageDate } from '../../../shared/api/pages.js';
import { TemplateUsageQuery } from '../../../shared/api/templates.js';
import { createTestApp, type TestApp } from '../../test/harness.js';

const REDOCLY = path.resolve('node_modules/@redocly/cli/bin/cli.js');

interface Schema {
  type?: string;
  pattern?: string;
  minLength?: number;
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Schema }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<
    string,
    { description?: string; headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }
  >;
}
interface Doc {
  servers?: unknown[];
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let body: string;
  let doc: Doc;
  const operations = () =>
    Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.entries(item).map(([m, op]) => ({ path: p, method: m, op })),
    );

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.request({ method: 'GET', url: '/cms/rest/openapi.json' });
    expect(res.statusCode).toBe(200);
    body = res.body;
    doc = JSON.parse(body) as Doc;
  });
  afterAll(() => t.close());

  it('passes `redocly lint` with the recommended rules without an error', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await fs.writeFile(file, body);
      // lint exits 1 on errors; its JSON report is on stdout either way.
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'],
        { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      ).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number };
        problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
      };
      const errors = report.problems
        .filter((p) => p.severity === 'error')
        .map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
      expect(errors).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it("passes Spectral's spectral:oas ruleset without an error or a warning", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(body, JsonParser, 'openapi.json'));
    // Severity 0 is an error, 1 a warning (2 information, 3 a hint).
    const problems = results
      .filter((r) => r.severity <= 1)
      .map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
  });

  it('describes the live events as a text/event-stream', () => {
    const op = doc.paths?.['/cms/rest/events']?.get as { responses: Record<string, { content?: object }> };
    expect(Object.keys(op.responses['200']!.content ?? {})).toEqual(['text/event-stream']);
  });

  it('lists the tags, and gives every operation a tag of that list and a description', () => {
    const tags = (doc.tags ?? []).map((t) => t.name);
    expect(tags).toEqual([
      'health',
      'auth',
      'users',
      'folders',
      'templates',
      'pages',
      'assets',
      'events',
      'leases',
      'search',
      'trash',
    ]);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toBeTruthy();
    for (const { path: p, method, op } of operations()) {
      expect(op.tags?.length, `${method} ${p}`).toBe(1);
      expect(tags, `${method} ${p}`).toContain(op.tags![0]);
      expect(op.description?.length ?? 0, `${method} ${p}`).toBeGreaterThan(20);
    }
  });

  it('asks no credentials of /healthz and of signing in, and the document-wide ones of every other operation', () => {
    const open = operations()
      .filter(({ op }) => op.security !== undefined)
      .map(({ method, path: p, op }) => [`${method.toUpperCase()} ${p}`, op.security]);
    expect(open).toEqual([
      ['GET /healthz', []],
      ['POST /cms/rest/auth/login', []],
    ]);
  });

  it('states the rules of the query parameters and page dates exactly as the server checks them', () => {
    const param = (p: string, method: string, name: string) => {
      const schema = doc.paths[p]![method]!.parameters!.find((x) => x.name === name)!.schema!;
      expect(schema.pattern, `${name}: pattern`).toBeDefined();
      return { schema, re: new RegExp(schema.pattern!) };
    };
    const include = param('/cms/rest/folders/by-path/{path}', 'delete', 'includeSubFolders').re;
    for (const v of ['true', 'false', 'TRUE', 'False']) expect(include.test(v), v).toBe(true);
    for (const v of ['', 'yes', '1', 'maybe', 'true,false', ' true']) expect(include.test(v), v).toBe(false);

    const kind = param('/cms/rest/folders/find', 'get', 'kind').re;
    for (const k of ItemKind.options) expect(kind.test(k), k).toBe(true);
    for (const v of ['section,folder', 'page,asset,site']) expect(kind.test(v), v).toBe(true);
    for (const v of ['', 'pages', 'section,', ',page', 'Section', 'section,,page']) expect(kind.test(v), v).toBe(false);

    const regions = param('/cms/rest/templates/{name}/usage', 'get', 'regions');
    expect(regions.schema.minLength).toBe(1);
    const serverTakes = (v: string) => TemplateUsageQuery.safeParse({ regions: v }).success;
    for (const v of ['main', 'a,b', 'side-bar.1', 'x'.repeat(64), `a,${'y'.repeat(64)}`]) {
      expect([regions.re.test(v), serverTakes(v)], v).toEqual([true, true]);
    }
    for (const v of ['', 'a,,b', ',a', 'a,', '-a', 'a b', 'x'.repeat(65), 'a,é']) {
      expect([regions.re.test(v), serverTakes(v)], v).toEqual([false, false]);
    }

    const body = doc.paths['/cms/rest/pages/by-path/{path}']!.put!.requestBody!.content['application/json']!
      .schema as Schema;
    const dateOf = (s: Schema) => new RegExp(s.anyOf!.find((x) => x.type === 'string')!.pattern!);
    const dates = [
      dateOf(body.properties!.overridePostDate!),
      dateOf(body.properties!.calendar!.properties!.startDate!),
      dateOf(body.properties!.calendar!.properties!.endDate!),
    ];
    const samples = [
      '2026-03-01',
      '2026-03-01T09:00',
      '2026-03-01T09:00:00Z',
      '2026-03-01T09:00:00.000+0000',
      '2024-02-29',
      '2000-02-29',
      '0100-01-01',
      '2023-02-29',
      '1900-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '0099-12-31',
      '2026-3-1',
      '2026-03-01T09',
      '2026-03-01T09:00:00.1234Z',
      'yesterday',
    ];
    for (const re of dates) {
      for (const v of samples) expect(re.test(v), v).toBe(PageDate.safeParse(v).success);
    }
    expect(samples.filter((v) => PageDate.safeParse(v).success)).toHaveLength(7);
  });

  it("documents a file download as the file's own bytes, with the 206 and 304 answers and their headers", () => {
    const download = doc.paths['/cms/rest/assets/binary/{path}']!.get!.responses;
    const binary = { '*/*': { schema: { type: 'string', format: 'binary' } } };
    expect(download['200']!.content).toEqual(binary);
    expect(download['206']!.content).toEqual(binary);
    expect(Object.keys(download['200']!.headers!).sort()).toEqual([
      'Accept-Ranges',
      'Content-Disposition',
      'Content-Length',
      'ETag',
    ]);
    expect(download['206']!.headers).toHaveProperty('Content-Range');
    expect(download['304']!.content).toBeUndefined();
    expect(download['304']!.headers).toHaveProperty('ETag');
    expect(download['416']!.headers).toHaveProperty('Content-Range');
    expect(download['416']!.content).toHaveProperty(['application/problem+json']);
    expect(JSON.stringify(download)).not.toContain('application/json');
  });

  it('documents the 431 of a request line and headers over the limit on every operation', () => {
    for (const { path: p, method, op } of operations()) {
      if (p === '/healthz') continue;
      expect(op.responses['431']?.content, `${method} ${p}`).toHaveProperty(['application/problem+json']);
    }
    const cursor = doc.paths['/cms/rest/assets/list/{path}']!.get!.parameters!.find((x) => x.name === 'cursor');
    expect(cursor?.schema).toMatchObject({ type: 'string', maxLength: 2000 });
  });

  it('names servers, and gives every operation a summary and a unique operationId', () => {
    expect(doc.servers?.length).toBeGreaterThan(0);
    const ids = operations().map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path: p, method, op } of operations()) {
      expect(op.operationId, `${method} ${p}`).toMatch(/^[a-z][A-Za-z]+$/);
      expect(op.summary, `${method} ${p}`).toBeTruthy();
    }
  });

  it('keeps the operationIds as they are (a rename breaks generated clients: change this list on purpose)', () => {
    expect(operations().map(({ op, method, path: p }) => `${op.operationId} = ${method.toUpperCase()} ${p}`)).toEqual([
      'getHealthz = GET /healthz',
      'getEvents = GET /cms/rest/events',
      'postAuthLogin = POST /cms/rest/auth/login',
      'postAuthLogout = POST /cms/rest/auth/logout',
      'postAuthPassword = POST /cms/rest/auth/password',
      'getAuthMe = GET /cms/rest/auth/me',
      'getUsers = GET /cms/rest/users',
      'getUsersByName = GET /cms/rest/users/{name}',
      'putUsersByName = PUT /cms/rest/users/{name}',
      'deleteUsersByName = DELETE /cms/rest/users/{name}',
      'getLeasesPage = GET /cms/rest/leases/page/{path}',
      'postLeasesPage = POST /cms/rest/leases/page/{path}',
      'deleteLeasesPage = DELETE /cms/rest/leases/page/{path}',
      'getLeasesAsset = GET /cms/rest/leases/asset/{path}',
      'postLeasesAsset = POST /cms/rest/leases/asset/{path}',
      'deleteLeasesAsset = DELETE /cms/rest/leases/asset/{path}',
      'getSearch = GET /cms/rest/search',
      'getPagesRevisions = GET /cms/rest/pages/revisions/{path}',
      'postPagesRestore = POST /cms/rest/pages/restore/{path}',
      'getAssetsRevisions = GET /cms/rest/assets/revisions/{path}',
      'postAssetsRestore = POST /cms/rest/assets/restore/{path}',
      'getAssetsByPath = GET /cms/rest/assets/by-path/{path}',
      'putAssetsByPath = PUT /cms/rest/assets/by-path/{path}',
      'deleteAssetsByPath = DELETE /cms/rest/assets/by-path/{path}',
      'getAssetsBinary = GET /cms/rest/assets/binary/{path}',
      'postAssetsBinary = POST /cms/rest/assets/binary/{path}',
      'putAssetsBinary = PUT /cms/rest/assets/binary/{path}',
      'getAssetsList = GET /cms/rest/assets/list/{path}',
      'getAssetsUsage = GET /cms/rest/assets/usage/{path}',
      'getAssetsTransitions = GET /cms/rest/assets/transitions/{path}',
      'postAssetsApproveAll = POST /cms/rest/assets/approve-all/{path}',
      'postAssetsSubmitAll = POST /cms/rest/assets/submit-all/{path}',
      'postAssetsArchiveAll = POST /cms/rest/assets/archive-all/{path}',
      'getSites = GET /cms/rest/sites',
      'getFoldersFind = GET /cms/rest/folders/find',
      'getFoldersByPath = GET /cms/rest/folders/by-path/{path}',
      'putFoldersByPath = PUT /cms/rest/folders/by-path/{path}',
      'deleteFoldersByPath = DELETE /cms/rest/folders/by-path/{path}',
      'getFoldersContentsByPath = GET /cms/rest/folders/contents/by-path/{path}',
      'getFoldersChildrenByPath = GET /cms/rest/folders/children/by-path/{path}',
      'postFoldersMove = POST /cms/rest/folders/move',
      'postFoldersCopy = POST /cms/rest/folders/copy',
      'postFoldersRename = POST /cms/rest/folders/rename',
      'getTemplates = GET /cms/rest/templates',
      'getTemplatesByName = GET /cms/rest/templates/{name}',
      'putTemplatesByName = PUT /cms/rest/templates/{name}',
      'deleteTemplatesByName = DELETE /cms/rest/templates/{name}',
      'getTemplatesByNameUsage = GET /cms/rest/templates/{name}/usage',
      'getPagesByPath = GET /cms/rest/pages/by-path/{path}',
      'putPagesByPath = PUT /cms/rest/pages/by-path/{path}',
      'deletePagesByPath = DELETE /cms/rest/pages/by-path/{path}',
      'getPagesTransitions = GET /cms/rest/pages/transitions/{path}',
      'postPagesApproveAll = POST /cms/rest/pages/approve-all/{path}',
      'postPagesSubmitAll = POST /cms/rest/pages/submit-all/{path}',
      'postPagesArchiveAll = POST /cms/rest/pages/archive-all/{path}',
      'getTrash = GET /cms/rest/trash',
      'postTrashRestore = POST /cms/rest/trash/restore',
      'deleteTrashById = DELETE /cms/rest/trash/{id}',
    ]);
  });

  it('declares the one item-path parameter of every by-path route', () => {
    const byPath = operations().filter(({ path: p }) => p.endsWith('/{path}'));
    expect(byPath.length).toBeGreaterThan(20);
    for (const { path: p, method, op } of byPath) {
      const params = (op.parameters ?? []).filter((x) => x.in === 'path');
      expect(
        params.map((x) => [x.name, x.required]),
        `${method} ${p}`,
      ).toEqual([['path', true]]);
      expect(params[0]!.description).toContain('<site>/<folders…>/<name>');
    }
    expect(Object.keys(doc.paths).filter((p) => p.includes('*'))).toEqual([]);
  });

  it('describes every error response as problem details, and the request bodies', () => {
    for (const { path: p, method, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        if (p === '/healthz') continue;
        expect(response.content, `${method} ${p} ${status}`).toEqual({
          'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetails' } },
        });
      }
      if (['put', 'post'].includes(method) && !/(submit|approve|archive)-all|logout/.test(p)) {
        expect(op.requestBody, `${method} ${p}`).toBeDefined();
      }
    }
    const upload = doc.paths['/cms/rest/assets/binary/{path}']!.post!.requestBody!.content;
    expect(Object.keys(upload)).toEqual(['multipart/form-data']);
    expect(upload['multipart/form-data']!.schema).toMatchObject({
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
  });
});
