import { buildApp } from './app.js';
import { loadConfig } from './config.js';

/** Reads the environment, builds the service, listens, and shuts down gracefully on SIGTERM/SIGINT. */
async function main() {
  const config = loadConfig();
  const app = await buildApp(config);
  if (app.folio.generatedAdminPassword) {
    // Printed once, on the first start with an empty database; it is not stored anywhere in clear text.
    process.stdout.write(
      `\n  First start: created user "admin" with password  ${app.folio.generatedAdminPassword}\n` +
        '  Sign in with it and change it under Users (or set CMS_ADMIN_PASSWORD before the first start).\n\n',
    );
  }
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  process.stderr.write(`Folio failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
