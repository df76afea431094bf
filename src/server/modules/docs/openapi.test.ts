import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';

const REDOCLY = path.resolve('node_modules/@redocly/cli/bin/cli.js');

interface Operation {
  operationId?: string;
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Doc {
  servers?: unknown[];
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
      'postAuthLogin = POST /cms/rest/auth/login',
      'postAuthLogout = POST /cms/rest/auth/logout',
      'postAuthPassword = POST /cms/rest/auth/password',
      'getAuthMe = GET /cms/rest/auth/me',
      'getUsers = GET /cms/rest/users',
      'getUsersByName = GET /cms/rest/users/{name}',
      'putUsersByName = PUT /cms/rest/users/{name}',
      'deleteUsersByName = DELETE /cms/rest/users/{name}',
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
