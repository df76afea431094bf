/**
 * Vitest global setup of the `web-server` project: the real server (SQLite on a temp dir) listening on a free
 * port, so browser-side code (the editing kit's forms) can be tested against it through the typed client.
 */
import type { TestProject } from 'vitest/node';
import { ADMIN_PASSWORD, createTestApp } from './harness.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server started for the web-server tests, e.g. `http://127.0.0.1:40123`. */
    folioServerUrl: string;
    folioAdminPassword: string;
  }
}

export default async function setup(project: TestProject) {
  // These tests read the server as a client does; the server's own suites cover PostgreSQL.
  const saved = process.env.TEST_DATABASE_URL;
  delete process.env.TEST_DATABASE_URL;
  const t = await createTestApp();
  if (saved !== undefined) process.env.TEST_DATABASE_URL = saved;
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  project.provide('folioServerUrl', address);
  project.provide('folioAdminPassword', ADMIN_PASSWORD);
  return () => t.close();
}
