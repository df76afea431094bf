import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Role } from '../../../shared/api/auth.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { badRequest, unauthenticated } from '../../lib/errors.js';
import { isoTime, type Actor, type ActorClaim, type AppContext } from '../../lib/context.js';
import { generatePassword, hashPassword } from '../../lib/passwords.js';
import { findUserCredentials, hasUsers, insertUserRecord, setPasswordHash } from '../users/user-records.js';
import { authRepository as repo } from './auth.repository.js';
import { createPasswordCheck } from './password-check.js';

export { LOGIN_FAILURE_WINDOW_MS, MAX_LOGIN_FAILURES } from './password-check.js';

/** How long a verified Basic credential is remembered, so not every request pays for scrypt. */
const BASIC_CACHE_MS = 60_000;
const BASIC_CACHE_MAX = 10_000;
/** Sessions record activity at most this often (their idle clock is that precise). */
const SESSION_TOUCH_MS = 30_000;
/** Sessions remembered by one node at most (the map is emptied when full; each entry is re-read on demand). */
const SESSION_CACHE_MAX = 10_000;

/** A session id's SHA-256, hex (the stored `id_hash`): the one-shot `hash`, as for Basic keys below. */
const sha256 = (s: string) => hash('sha256', s, 'hex');

export interface SessionInfo extends Actor {
  csrfToken: string;
}

/** Sign-in: HTTP Basic for API clients, server-side sessions for the SPA, a rate limit for both. */
export function createAuthService(ctx: AppContext) {
  const { db } = ctx;
  const { readNow } = ctx.database;
  // Keyed hash of the Authorization header → who it proved to be, the password hash it was checked against, and
  // the change generation under which that user row was last read.
  // The key is SHA-256(secret ‖ header): a lookup key that never leaves the process, so an HMAC's construction adds
  // nothing, and the one-shot `hash` costs a quarter of `createHmac` (~0.6 vs ~2.4 µs, on every request).
  const basicKey = randomBytes(32).toString('hex');
  const basicCacheKey = (header: string) => hash('sha256', basicKey + header, 'base64');
  const basicCache = new Map<
    string,
    { username: string; role: Role; passwordHash: string; expires: number; generation: string }
  >();

  /**
   * Sessions this node resolved, by SHA-256 of the session id, each with the change generation read before its row
   * was: trusted without a query while that generation holds (logout, a password change, a role change or a user's
   * deletion bumps it on every node), until the absolute expiry, and only while the last touch this node knows of
   * is younger than SESSION_TOUCH_MS — past that the row is read (and touched) again, so idle expiry is decided
   * from the database's last-seen time, never from this node's older copy.
   */
  const sessionCache = new Map<
    string,
    { username: string; role: Role; csrfToken: string; expiresAt: number; lastSeenAt: number; generation: string }
  >();

  /** The session `sessionId` proved, when remembered under `generation` and still fresh; null otherwise. */
  function rememberedSession(sessionId: string, generation: string): SessionInfo | null {
    const entry = sessionCache.get(sha256(sessionId));
    if (!entry || entry.generation !== generation) return null;
    const now = ctx.now();
    if (now > entry.expiresAt || now - entry.lastSeenAt > Math.min(SESSION_TOUCH_MS, ctx.config.sessionIdleMs)) {
      return null;
    }
    return { username: entry.username, role: entry.role, csrfToken: entry.csrfToken };
  }

  const checkPassword = createPasswordCheck(ctx);

  /**
   * Proves that `currentPassword` is the user's own before a change of it: a wrong one is a 400 on
   * `body.currentPassword` and counts toward the sign-in rate limit of the user at `address` (429 past it).
   */
  async function proveCurrentPassword(username: string, currentPassword: string, address: string): Promise<void> {
    if (!(await checkPassword(username, currentPassword, address))) {
      throw badRequest('The current password is not right; nothing was changed.', [
        { path: 'body.currentPassword', message: 'is wrong' },
      ]);
    }
  }

  /** Verifies a username and password, honouring the rate limit; answers the actor or throws 401/429. */
  async function verifyCredentials(username: string, password: string, address: string): Promise<Actor> {
    const user = await checkPassword(username, password, address);
    if (!user) throw unauthenticated('Wrong username or password.');
    return { username: user.username, role: user.role as Role };
  }

  async function openSession(actor: Actor) {
    const sessionId = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(32).toString('base64url');
    const now = ctx.now();
    await repo.insertSession(db, {
      id_hash: sha256(sessionId),
      username: actor.username,
      csrf_token: csrfToken,
      created_at: now,
      last_seen_at: now,
      expires_at: now + ctx.config.sessionAbsoluteMs,
    });
    return { sessionId, user: { ...actor, csrfToken } };
  }

  /**
   * The user an `Authorization: Basic …` header proved to be, when that header was verified less than 60 s ago
   * and the change generation is still the one it was last checked under; null otherwise (then `resolveBasic`).
   * Synchronous and query-free: the fast path of every request with Basic credentials.
   */
  function rememberedBasic(header: string, generation: string): Actor | null {
    const cached = basicCache.get(basicCacheKey(header));
    // The key covers the whole header: a remembered credential needs no decoding.
    if (cached && cached.expires > ctx.now() && cached.generation === generation) {
      return { username: cached.username, role: cached.role };
    }
    return null;
  }

  /**
   * On SQLite (Database.readNow): a Basic credential verified less than 60 s ago whose generation moved since (every
   * commit moves SQLite's) is checked against the user row read now, synchronously, as `resolveBasic` would check
   * it with a query: the same password hash keeps it (with the role read now), anything else drops it. Null when
   * that does not apply or the check fails: then `resolveBasic` decides.
   */
  function recheckBasicNow(header: string, generation: string): Actor | null {
    if (!readNow) return null;
    const key = basicCacheKey(header);
    const cached = basicCache.get(key);
    if (!cached || cached.expires <= ctx.now()) return null;
    const user = findUserCredentials(db, cached.username, { now: readNow });
    if (!user || user.password_hash !== cached.passwordHash) {
      basicCache.delete(key);
      return null;
    }
    cached.role = user.role as Role;
    cached.generation = generation;
    return { username: cached.username, role: cached.role };
  }

  /**
   * On SQLite (Database.readNow): the session `sessionId` read now, synchronously, when its row says it is live and
   * needs no touch (remembered under `generation` when one is given); undefined otherwise, and then
   * `resolveSession` decides (it also ends sessions past their limits and touches the ones due).
   */
  function resolveSessionNow(sessionId: string, generation: string | undefined): SessionInfo | undefined {
    if (!readNow) return undefined;
    const idHash = sha256(sessionId);
    const row = repo.findSession(db, idHash, { now: readNow });
    if (!row) return undefined;
    const now = ctx.now();
    const lastSeen = Number(row.last_seen_at);
    const expiresAt = Number(row.expires_at);
    if (now > expiresAt || now - lastSeen > Math.min(SESSION_TOUCH_MS, ctx.config.sessionIdleMs)) return undefined;
    return sessionOf(idHash, row, lastSeen, generation);
  }

  /** `session` past what can be answered now: reads the row, ends a session past its limits, touches a due one. */
  async function resolveSession(sessionId: string, generation: string | undefined): Promise<SessionInfo | null> {
    const idHash = sha256(sessionId);
    sessionCache.delete(idHash);
    const row = await repo.findSession(db, idHash);
    if (!row) return null;
    const now = ctx.now();
    let lastSeen = Number(row.last_seen_at);
    const expiresAt = Number(row.expires_at);
    if (now > expiresAt || now - lastSeen > ctx.config.sessionIdleMs) {
      await repo.deleteSession(db, idHash);
      return null;
    }
    if (now - lastSeen > SESSION_TOUCH_MS) {
      await repo.touchSession(db, idHash, now);
      lastSeen = now;
    }
    return sessionOf(idHash, row, lastSeen, generation);
  }

  /** `basic` past what memory answers: decodes the header, reads the user row, verifies the password if need be. */
  async function resolveBasic(header: string, address: string, generation: string | undefined): Promise<Actor | null> {
    const cacheKey = basicCacheKey(header);
    const cached = basicCache.get(cacheKey);
    const now = ctx.now();
    const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    if (!m) return null;
    const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) throw unauthenticated('Malformed Basic credentials.');
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    if (cached && cached.expires > now && cached.username === username) {
      const user = await findUserCredentials(db, username);
      // A changed password hash (or a deleted user) drops the remembered credential at once, on every node.
      if (user && user.password_hash === cached.passwordHash) {
        Object.assign(cached, { role: user.role as Role }, generation === undefined ? {} : { generation });
        return { username, role: cached.role };
      }
      basicCache.delete(cacheKey);
    }
    const actor = await verifyCredentials(username, password, address);
    const user = await findUserCredentials(db, username);
    if (basicCache.size >= BASIC_CACHE_MAX) basicCache.clear();
    basicCache.set(cacheKey, {
      username,
      role: user!.role as Role,
      passwordHash: user!.password_hash,
      expires: now + BASIC_CACHE_MS,
      // '' matches no generation: the next safe request reads the user row once more.
      generation: generation ?? '',
    });
    return actor;
  }

  /** The session of a live row, remembered under `generation` when one is given. */
  function sessionOf(
    idHash: string,
    row: { username: string; role: string; csrf_token: string; expires_at: number },
    lastSeen: number,
    generation: string | undefined,
  ): SessionInfo {
    const session = { username: row.username, role: row.role as Role, csrfToken: row.csrf_token };
    if (generation !== undefined) {
      if (sessionCache.size >= SESSION_CACHE_MAX) sessionCache.clear();
      sessionCache.set(idHash, { ...session, expiresAt: Number(row.expires_at), lastSeenAt: lastSeen, generation });
    }
    return session;
  }

  /**
   * A Basic credential verified less than 60 s ago, whatever the generation since: the actor an ActorClaim takes on
   * trust, and the proof its write must carry (the user row still holds the hash and role it was checked against).
   * Null otherwise.
   */
  function basicClaim(header: string): { actor: Actor; proof: ActorClaim['proof'] } | null {
    const cached = basicCache.get(basicCacheKey(header));
    if (!cached || cached.expires <= ctx.now()) return null;
    return {
      actor: { username: cached.username, role: cached.role },
      proof: { condition: BASIC_PROOF, values: [cached.username, cached.passwordHash, cached.role] },
    };
  }

  /**
   * A session this node resolved and that was touched less than SESSION_TOUCH_MS ago, whatever the generation
   * since: the session an ActorClaim takes on trust, and the proof its write must carry (the session row is there,
   * within its limits now, and its user has the role remembered). Null otherwise (then `resolveSession`).
   */
  function sessionClaim(sessionId: string): { session: SessionInfo; proof: ActorClaim['proof'] } | null {
    const idHash = sha256(sessionId);
    const entry = sessionCache.get(idHash);
    const now = ctx.now();
    if (
      !entry ||
      now > entry.expiresAt ||
      now - entry.lastSeenAt > Math.min(SESSION_TOUCH_MS, ctx.config.sessionIdleMs)
    ) {
      return null;
    }
    return {
      session: { username: entry.username, role: entry.role, csrfToken: entry.csrfToken },
      proof: { condition: SESSION_PROOF, values: [idHash, entry.role, now, now - ctx.config.sessionIdleMs] },
    };
  }

  return {
    /** Creates `admin` when there are no users: with CMS_ADMIN_PASSWORD, or a generated one that is returned once. */
    async ensureAdmin(): Promise<{ created: boolean; generatedPassword?: string }> {
      if (await hasUsers(db)) return { created: false };
      const generated = ctx.config.adminPassword ? undefined : generatePassword();
      const now = isoTime(ctx.now());
      try {
        await insertUserRecord(db, {
          username: 'admin',
          role: 'Admin',
          passwordHash: await hashPassword(ctx.config.adminPassword ?? generated!),
          at: now,
        });
      } catch (err) {
        // Another node starting on the same empty database created it first (and prints its password).
        if (isUniqueViolation(err)) return { created: false };
        throw err;
      }
      return { created: true, generatedPassword: generated };
    },

    /** Signs in and opens a session; answers the session id (for the cookie) and the user. */
    async login(username: string, password: string, address: string) {
      const actor = await verifyCredentials(username, password, address);
      return openSession(actor);
    },

    /**
     * The signed-in user changes their own password: the current one must be right (a wrong one counts toward the
     * sign-in rate limit and is a 400 on `currentPassword`, never a 401 that would end the session). Every other
     * session of the user ends; the one that made the change (`sessionId`) stays.
     */
    async changePassword(
      actor: Actor,
      body: { currentPassword: string; newPassword: string },
      address: string,
      sessionId?: string,
    ): Promise<void> {
      await proveCurrentPassword(actor.username, body.currentPassword, address);
      const passwordHash = await hashPassword(body.newPassword);
      await db.transaction().execute(async (trx) => {
        await setPasswordHash(trx, actor.username, passwordHash, isoTime(ctx.now()));
        if (sessionId) await repo.deleteOtherSessionsOf(trx, actor.username, sha256(sessionId));
        else await repo.deleteSessionsOf(trx, actor.username);
      });
    },

    proveCurrentPassword,

    /** Opens a session for a known user without a password: for start-up work (the demo seed), never exposed. */
    openSession,

    /** Ends a session (the route bumps the change generation, so every node forgets it too). */
    async logout(sessionId: string) {
      const idHash = sha256(sessionId);
      sessionCache.delete(idHash);
      await repo.deleteSession(db, idHash);
    },

    /**
     * The user of a live session, or null; ends sessions past their idle or absolute limit. `generation` is the
     * change generation read at the start of the request (none for unsafe requests, which bump it anyway): the
     * answer is remembered under it. Answered now, without a query, when remembered under it; on SQLite also when
     * the row read now is live and needs no touch; otherwise after reading (and maybe touching) the row.
     */
    session(sessionId: string, generation: string | undefined): SessionInfo | null | Promise<SessionInfo | null> {
      return (
        (generation !== undefined && rememberedSession(sessionId, generation)) ||
        resolveSessionNow(sessionId, generation) ||
        resolveSession(sessionId, generation)
      );
    },

    /**
     * Verifies an `Authorization: Basic …` header; answers null when the header is not Basic. `generation` is the
     * change generation read at the start of the request: a remembered credential is trusted without a query
     * while it is unchanged (every change of users or passwords bumps it, on every node); otherwise the user row
     * is read again and a changed password hash (or a deleted user) drops the credential.
     */
    basic(header: string, address: string, generation: string | undefined): Actor | null | Promise<Actor | null> {
      // Without a generation (an unsafe request on PostgreSQL, which does not read it) the user row is read anyway.
      if (generation === undefined) return resolveBasic(header, address, generation);
      const now = rememberedBasic(header, generation) ?? recheckBasicNow(header, generation);
      return now ?? resolveBasic(header, address, generation);
    },

    basicClaim,
    sessionClaim,

    /** Constant-time comparison of a CSRF token with the session's. */
    csrfMatches(expected: string, given: string | undefined): boolean {
      if (!given) return false;
      const a = Buffer.from(expected);
      const b = Buffer.from(given);
      return a.length === b.length && timingSafeEqual(a, b);
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;

// What an ActorClaim's write proves, in db/prepared.ts StatementProof form (the statement binds the values).
/** A Basic credential: the user row still holds the password hash and role it was checked against. */
const BASIC_PROOF = 'exists (select 1 from users where username = {} and password_hash = {} and role = {})';
/** A session: its row is there, within its absolute and idle limits now, and its user still has the role. */
const SESSION_PROOF =
  'exists (select 1 from sessions s join users u on u.username = s.username' +
  ' where s.id_hash = {} and u.role = {} and s.expires_at >= {} and s.last_seen_at >= {})';
