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
 * PostgreSQL: the longest a hole in the ids holds the events after it back. A sequence gives ids in the order
 * transactions insert, not the order they commit, so an id missing below a visible one belongs to a transaction
 * still running (or rolled back). The hub sends in id order up to the hole and waits until every transaction that
 * was running when it saw the hole has ended (usually milliseconds); then the hole is filled or never will be.
 * A transaction running longer than this (anything on the database server counts) only delays the events; one
 * whose change commits after this is sent late, out of order.
 */
const HOLE_WAIT_MS = 5000;

/** One open event stream: who reads it, and where its frames go. */
export interface EventStream {
  actor: Actor;
  /** Writes a frame (SSE text); false once the stream is gone. */
  write(frame: string): void;
  end(): void;
}

/**
 * A stream as the hub holds it. Change events with an id up to `after` are not sent (another node sent them);
 * while `held` is set (the stream is opening), frames wait there, behind the resumed ones.
 */
interface Member {
  stream: EventStream;
  after: number;
  held: { id: number; frame: string }[] | null;
}

function send(m: Member, id: number, frame: string) {
  if (id <= m.after) return;
  if (m.held) m.held.push({ id, frame });
  else m.stream.write(frame);
}

/**
 * The fan-out of one node: while streams are open, it reads the rows new in the change log once per poll (one
 * query for every stream; on SQLite only when the change generation moved, which costs no query) and sends each
 * event to the streams allowed to read it. Every node runs its own, so an event written on any node reaches the
 * streams of all of them through the database.
 */
export function createEventHub(ctx: AppContext) {
  const readEvents = async (after: number, limit: number) => {
    const { found, ids, lastId } = await repo.after(ctx.db, after, limit);
    return { events: found.map(({ row, path }) => presentChange(row, path)), ids, lastId };
  };
  const streams = new Set<Member>();
  const sqlite = ctx.database.dialect === 'sqlite';
  /** Every change id at or below it is final and sent: where a live stream (and a `Last-Event-ID`) stands. */
  let cursor: number | null = null;
  /**
   * PostgreSQL: ids were missing below `below` (the highest id of the read that found them) while the
   * transactions of `snapshot` ran; once they have ended, what is still missing up to `below` is passed.
   */
  let hole: { below: number; snapshot: string; since: number; ended: boolean } | null = null;
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
      for (const m of streams) if (!m.held) m.stream.write(': heartbeat\n\n');
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
    hole = null;
  }

  /**
   * Where a node starts reading: the end of the log. On PostgreSQL only once every transaction running at that
   * moment has ended, so no id below the start is still to commit (bounded by HOLE_WAIT_MS).
   */
  async function findStart(): Promise<number> {
    const last = await repo.lastId(ctx.db);
    if (sqlite) return last;
    const snapshot = await repo.snapshot(ctx.db);
    for (const since = Date.now(); Date.now() - since < HOLE_WAIT_MS;) {
      if (await repo.ended(ctx.db, snapshot)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    return last;
  }
  /** Sets the cursor when there is none; one search at a time, so streams opening together agree on it. */
  let starting: Promise<void> | null = null;
  async function settleCursor(): Promise<number> {
    while (cursor === null && !closed) {
      starting ??= findStart()
        .then((last) => {
          cursor ??= last;
        })
        .finally(() => {
          starting = null;
        });
      await starting;
    }
    return cursor ?? 0;
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
      await settleCursor();
      return;
    }
    // Batch after batch until the log is read to its end (a full batch: more are waiting).
    for (;;) {
      // Before the read: a hole's transactions that ended by now have their rows in it.
      if (!sqlite && hole && !hole.ended && (await repo.ended(ctx.db, hole.snapshot))) hole.ended = true;
      const from: number = cursor;
      const { events, ids, lastId } = await readEvents(from, BATCH);
      let upTo = sqlite ? lastId : from;
      if (!sqlite) {
        const passable = (id: number) =>
          hole !== null && id - 1 <= hole.below && (hole.ended || Date.now() - hole.since > HOLE_WAIT_MS);
        for (const id of ids) {
          if (id !== upTo + 1 && !passable(id)) break;
          upTo = id;
        }
        if (upTo < lastId) {
          // A hole: wait for the transactions running now. Seen again with the same ones, keep waiting.
          if (!hole || hole.below < upTo + 1) {
            hole = { below: lastId, snapshot: await repo.snapshot(ctx.db), since: Date.now(), ended: false };
          }
        } else if (hole && upTo >= hole.below) {
          hole = null;
        }
      }
      // Rows left out (items gone since) move the cursor too: a run of them never holds the stream back.
      cursor = upTo;
      for (const event of events) {
        if (event.id > upTo) break;
        const frame = changeFrame(event);
        for (const m of streams) send(m, event.id, frame);
      }
      if (ids.length < BATCH || upTo < lastId) break;
    }
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
      const settled = await settleCursor();
      // A shutdown that came meanwhile ended every stream it knew of: this one too.
      if (closed) {
        stream.end();
        return () => {};
      }
      // Live frames wait behind the resumed ones, so the stream stays in id order.
      const member: Member = { stream, after: lastEventId ?? -1, held: [] };
      streams.add(member);
      startTimers();
      // (The last stream leaving meanwhile unset it: the end found a moment ago is still a safe start.)
      cursor ??= settled;
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
        // Another node sent it and this one has not read that far yet: the live events up to it are skipped. An id
        // this log never gave (another database, or one restored from a backup): start over.
        const [newest, pruned] = await Promise.all([repo.lastId(ctx.db), repo.prunedUpTo(ctx.db)]);
        if (lastEventId > Math.max(newest, pruned)) {
          stream.write(resetFrame(live));
          member.after = -1;
        }
      }
      for (const { id, frame } of member.held!) if (id > member.after) stream.write(frame);
      member.held = null;
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
      for (const m of streams) m.stream.end();
      streams.clear();
      await polling;
    },
  };
}

export type EventHub = ReturnType<typeof createEventHub>;
