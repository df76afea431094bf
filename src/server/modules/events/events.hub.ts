import type { Actor, AppContext } from '../../lib/context.js';
import { changeFrame, presentChange, resetFrame } from './events.presenter.js';
import { eventsRepository as repo } from './events.repository.js';

/** How often a node looks for new rows of the change log while it has streams open. */
export const POLL_MS = 200;
/** How often an idle stream gets a comment line, so proxies keep it open. */
export const HEARTBEAT_MS = 15_000;
/** How long the change log keeps rows, so a reconnect can resume without gaps. */
export const RETAIN_MS = 15 * 60_000;
/** How often a node prunes the change log. */
export const PRUNE_EVERY_MS = 60_000;
/** A resume with more events than this missed is told to refetch instead. */
export const RESUME_LIMIT = 2000;
/** Rows one poll reads at most (the rest come with the next poll). */
const BATCH = 500;
/**
 * PostgreSQL: how long a change id may wait between being taken (inside its transaction) and its commit. A
 * sequence gives ids in the order transactions insert, not the order they commit, so each poll reads again from
 * where the log stood this long ago and leaves out what it already sent. SQLite commits one writer at a time:
 * ids arrive in order there.
 */
const COMMIT_SLACK_MS = 5000;

/** One open event stream: who reads it, and where its frames go. */
export interface EventStream {
  actor: Actor;
  /** Writes a frame (SSE text); false once the stream is gone. */
  write(frame: string): void;
  end(): void;
}

/**
 * The fan-out of one node: while streams are open, it reads the rows new in the change log once per poll (one
 * query for every stream; on SQLite only when the change generation moved, which costs no query) and sends each
 * event to the streams allowed to read it. Every node runs its own, so an event written on any node reaches the
 * streams of all of them through the database.
 */
export function createEventHub(ctx: AppContext) {
  const readEvents = async (after: number, limit: number) => {
    const { found, read, lastId } = await repo.after(ctx.db, after, limit);
    return { events: found.map(({ row, path }) => presentChange(row, path)), read, lastId };
  };
  const streams = new Set<EventStream>();
  const sqlite = ctx.database.dialect === 'sqlite';
  let cursor: number | null = null;
  /** (time, cursor) of recent polls: where to read from to cover commits that came late (PostgreSQL). */
  let history: { at: number; cursor: number }[] = [];
  /** Ids sent within the commit slack, so a re-read sends none twice. */
  const sent = new Map<number, number>();
  let lastGeneration: string | null = null;
  let polling: Promise<void> | null = null;
  let pollTimer: NodeJS.Timeout | null = null;
  let heartbeat: NodeJS.Timeout | null = null;
  let closed = false;

  const prune = setInterval(() => {
    repo
      .prune(ctx.db, new Date(Date.now() - RETAIN_MS).toISOString(), 0)
      .catch((err: unknown) => ctx.log.warn({ err }, 'could not prune the change log'));
  }, PRUNE_EVERY_MS);
  prune.unref();

  function startTimers() {
    if (pollTimer || closed) return;
    pollTimer = setInterval(() => void poll(), POLL_MS);
    pollTimer.unref();
    heartbeat = setInterval(() => {
      for (const s of streams) s.write(': heartbeat\n\n');
    }, HEARTBEAT_MS);
    heartbeat.unref();
  }

  function stopTimers() {
    if (pollTimer) clearInterval(pollTimer);
    if (heartbeat) clearInterval(heartbeat);
    pollTimer = heartbeat = null;
    // Nobody listens: the next first stream starts at the end of the log, not at what went by meanwhile (a resume
    // asks for that with Last-Event-ID).
    cursor = null;
    lastGeneration = null;
    history = [];
    sent.clear();
  }

  function poll(): Promise<void> {
    polling ??= pollOnce()
      .catch((err: unknown) => ctx.log.warn({ err }, 'could not read the change log'))
      .finally(() => {
        polling = null;
      });
    return polling;
  }

  async function pollOnce() {
    if (!streams.size) return;
    if (sqlite && ctx.generation.readCostsAQuery === false) {
      const generation = ctx.generation.read();
      if (generation === lastGeneration && cursor !== null) return;
      lastGeneration = generation;
    }
    if (cursor === null) {
      cursor = await repo.lastId(ctx.db);
      return;
    }
    const now = Date.now();
    history = history.filter((h) => now - h.at <= COMMIT_SLACK_MS);
    let from = sqlite ? cursor : Math.min(cursor, history[0]?.cursor ?? cursor);
    // Batch after batch until the log is read to its end (a full batch: more are waiting).
    for (;;) {
      const { events, read, lastId } = await readEvents(from, BATCH);
      // Rows left out (items gone since) move the cursor too: a run of them never holds the stream back.
      cursor = Math.max(cursor, lastId);
      const fresh = events.filter((e) => !sent.has(e.id));
      if (!sqlite) for (const e of fresh) sent.set(e.id, now);
      for (const event of fresh) {
        const frame = changeFrame(event);
        for (const s of streams) s.write(frame);
      }
      if (read < BATCH) break;
      from = lastId;
    }
    history.push({ at: now, cursor });
    if (!sqlite) for (const [id, at] of sent) if (now - at > COMMIT_SLACK_MS * 2) sent.delete(id);
  }

  return {
    /**
     * Opens a stream: with `lastEventId`, the events after it first (or a `reset` event when the log no longer
     * reaches back that far, or more were missed than a resume sends), then live events.
     */
    async open(stream: EventStream, lastEventId: number | undefined): Promise<() => void> {
      if (closed) {
        stream.end();
        return () => {};
      }
      // The live cursor is settled first, so nothing committed from here on is missed.
      if (cursor === null) cursor = await repo.lastId(ctx.db);
      // Live frames wait behind the resumed ones, so the stream stays in id order.
      let held: string[] | null = [];
      const member: EventStream = {
        actor: stream.actor,
        write: (frame) => (held ? held.push(frame) : stream.write(frame)),
        end: () => stream.end(),
      };
      streams.add(member);
      startTimers();
      const live = cursor;
      stream.write(`retry: 1000\n: connected\n\n`);
      if (lastEventId !== undefined && lastEventId < live) {
        const [floor, missed] = await Promise.all([repo.prunedUpTo(ctx.db), readEvents(lastEventId, RESUME_LIMIT + 1)]);
        const upTo = missed.events.filter((e) => e.id <= live);
        if (lastEventId < floor || upTo.length > RESUME_LIMIT) {
          stream.write(resetFrame(live));
        } else {
          for (const e of upTo) stream.write(changeFrame(e));
        }
      } else if (lastEventId !== undefined && lastEventId > live) {
        // An id this log never gave (another database, or one restored from a backup): start over.
        stream.write(resetFrame(live));
      }
      for (const frame of held) stream.write(frame);
      held = null;
      return () => {
        streams.delete(member);
        if (!streams.size) stopTimers();
      };
    },

    /** Streams open on this node. */
    get size() {
      return streams.size;
    },

    /** Reads the log now (tests, and a write that wants its event out before the next poll). */
    poll,

    /** Ends every stream (a shutdown): clients reconnect to another node or after the restart. */
    async close() {
      closed = true;
      clearInterval(prune);
      stopTimers();
      for (const s of streams) s.end();
      streams.clear();
      await polling;
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
