import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

const require = createRequire(import.meta.url);
const nodeMajor = Number(process.versions.node.split('.')[0]);

/**
 * The package that provides better-sqlite3 on this Node: 12.x on Node 20, 13.x (installed as `better-sqlite3-13`)
 * on Node 22 and later. 12.x aborts the process on Node ≥ 24.19 when a statement is garbage-collected while no
 * JavaScript runs (Node's ObjectWrap cleanup hooks; WiseLibs/better-sqlite3#1515), and 13.x, which fixes that,
 * needs Node ≥ 22 (it crashes on Node 20). One API, so the rest of the server does not know which it got.
 */
export const SQLITE_PACKAGE = nodeMajor >= 22 ? 'better-sqlite3-13' : 'better-sqlite3';

/** The better-sqlite3 `Database` constructor for this Node (see SQLITE_PACKAGE). */
const SQLite = require(SQLITE_PACKAGE) as typeof BetterSqlite3;
export default SQLite;

/** An open better-sqlite3 connection. */
export type SqliteConnection = BetterSqlite3.Database;
