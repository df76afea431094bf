import { SCHEDULER_USERNAME, type WorkflowInfo, type WorkflowState } from '../../shared/api/workflow.js';
import { isoTime, type Actor, type AppContext } from './context.js';
import { AppError } from './errors.js';
import type { Preconditions } from './etag.js';
import type { SerialisedJson } from './respond.js';

/**
 * Scheduled publishing: every node looks for pages and assets whose `publish_at` or `unpublish_at` has come, every
 * `CMS_SCHEDULE_SECONDS` and once at start (so a time missed while no node ran is acted on at once), and moves each
 * through the same PUT a person's workflow move takes, as SCHEDULER_ACTOR.
 *
 * Exactly once, on any number of nodes: the PUT carries `If-Match` with the ETag of the item as the node read it,
 * showing the time as due. The write clears the time, so it changes the ETag; a second node that read the same
 * ETag gets 412 (the PUT's conditional `UPDATE` or its row lock decides, on both databases), and a node that reads
 * after the write no longer sees a due time. Nothing is claimed ahead, so a node that dies mid-way leaves nothing
 * behind: the next run of any node does it. No node is special.
 */

/** Who scheduled moves are made by: no user can have this name (`Username` allows no parentheses). */
export const SCHEDULER_ACTOR: Actor = { username: SCHEDULER_USERNAME, role: 'Admin', overridesLease: true };

/** How many due items of each kind one run takes (the next run takes the rest at once). */
export const SCHEDULE_BATCH = 100;

/** The workflow members a scheduled move sends in its PUT. */
export interface ScheduledMove {
  state?: WorkflowState;
  publishAt?: null;
  unpublishAt?: null;
}

/**
 * What the scheduler needs of pages or of assets: the ids of those due (their repository), item paths, and their
 * services' by-path `get` and `put`.
 */
export interface ScheduledKind {
  kind: 'page' | 'asset';
  /** Ids of the items with a publish or unpublish time at or before `now`, earliest first, at most `limit` of each. */
  due(now: string, limit: number): Promise<string[]>;
  /** The item's path, or null when it is gone. */
  pathOf(id: string): Promise<string[] | null>;
  get(actor: Actor, segments: readonly string[]): SerialisedJson | Promise<SerialisedJson>;
  put(actor: Actor, segments: readonly string[], body: never, pre: Preconditions): Promise<unknown>;
}

/** The move a due schedule asks for, or null when nothing is due now. Publishing first: it is the earlier. */
export function moveOf(workflow: WorkflowInfo, now: string): ScheduledMove | null {
  if (workflow.publishAt && workflow.publishAt <= now) {
    return { publishAt: null, ...(workflow.state === 'Public' ? {} : { state: 'Public' as const }) };
  }
  if (workflow.unpublishAt && workflow.unpublishAt <= now) {
    // Only what is live is archived: a Draft, Review or Archive item just loses its time.
    const live = workflow.state === 'Public' || workflow.state === 'Quick Edit';
    return { unpublishAt: null, ...(live ? { state: 'Archive' as const } : {}) };
  }
  return null;
}

export interface Scheduler {
  /** Acts on everything due now (after any run under way); answers how many moves this node made. */
  runNow(): Promise<number>;
  /** Waits for the run under way, if any. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the scheduler over `kinds`: a run at once, then one every `ctx.config.scheduleMs`. */
export function startScheduler(ctx: AppContext, kinds: readonly ScheduledKind[]): Scheduler {
  let running: Promise<number> = Promise.resolve(0);
  let busy = false;
  let stopped = false;

  async function fire(kind: ScheduledKind, id: string, now: string): Promise<boolean> {
    const segments = await kind.pathOf(id);
    if (!segments) return false;
    const { json, etag } = await kind.get(SCHEDULER_ACTOR, segments);
    const read = JSON.parse(json) as { workflow: WorkflowInfo; templateName?: string };
    const move = moveOf(read.workflow, now);
    if (!move) return false;
    // A page's PUT names its template (the one it has: no switch).
    const body = { ...(kind.kind === 'page' ? { templateName: read.templateName } : {}), workflow: move };
    try {
      await kind.put(SCHEDULER_ACTOR, segments, body as never, { ifMatch: etag });
      return true;
    } catch (err) {
      // Another node made this move first (or someone changed the item since it was read): nothing to do.
      if (err instanceof AppError && err.status === 412) return false;
      throw err;
    }
  }

  async function run(): Promise<number> {
    let moves = 0;
    for (const kind of kinds) {
      // A pass takes a batch; an item with both times due moves twice, so passes go on while moves are made.
      for (let pass = 0; pass < 10 && !stopped; pass++) {
        const now = isoTime(ctx.now());
        const due = await kind.due(now, SCHEDULE_BATCH);
        let made = 0;
        for (const id of due) {
          try {
            if (await fire(kind, id, now)) made += 1;
          } catch (err) {
            ctx.log.warn({ err, kind: kind.kind, id }, 'a scheduled workflow move failed; it is tried again');
          }
        }
        moves += made;
        if (!made) break;
      }
    }
    if (moves) {
      await ctx.database.durable();
      await ctx.generation.bump();
    }
    return moves;
  }

  function runNow(): Promise<number> {
    running = running.then(async () => {
      if (stopped) return 0;
      busy = true;
      try {
        return await run();
      } catch (err) {
        ctx.log.warn({ err }, 'the scheduled publishing run failed');
        return 0;
      } finally {
        busy = false;
      }
    });
    return running;
  }

  void runNow();
  // A tick while a run is under way is skipped, so runs never queue up behind a slow one.
  const timer = setInterval(() => void (busy ? undefined : runNow()), ctx.config.scheduleMs);
  timer.unref();
  return {
    runNow,
    async settled() {
      await running;
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
