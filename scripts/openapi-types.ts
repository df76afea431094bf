// `npm run openapi:types`: builds the server in-process on a temporary data dir, reads its OpenAPI document and
// writes the types openapi-typescript generates from it to src/generated/openapi-types.ts (committed, used by the
// generated-client test). `--print` writes the document to stdout instead.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';
import { OPENAPI_TYPES_FILE, openApiTypesOf } from '../src/server/test/openapi-types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The served OpenAPI document of a fresh app. */
async function servedDocument(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'folio-openapi-'));
  try {
    const password = 'openapi-types';
    const config = loadConfig({
      CMS_DATA_DIR: dir,
      CMS_SEED: 'false',
      CMS_ADMIN_PASSWORD: password,
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp(config, { logger: false });
    try {
      const authorization = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
      const res = await app.inject({ method: 'GET', url: '/cms/rest/openapi.json', headers: { authorization } });
      if (res.statusCode !== 200) throw new Error(`GET /cms/rest/openapi.json: ${res.statusCode} ${res.body}`);
      return res.body;
    } finally {
      await app.close();
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

const json = await servedDocument();
if (process.argv.includes('--print')) {
  process.stdout.write(json);
} else {
  await fs.writeFile(path.join(root, OPENAPI_TYPES_FILE), await openApiTypesOf(json));
  console.log(`wrote ${OPENAPI_TYPES_FILE}`);
}
