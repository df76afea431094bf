import type { LeaseBody, LeaseKind, LeaseState } from '../../../shared/api/leases.js';
import { LEASE_HEARTBEAT_MS } from '../../../shared/api/leases.js';
import { isoTime, type Actor, type AppContext } from '../../lib/context.js';
import { recordChanges } from '../../lib/change-log.js';
import { AppError, notFound } from '../../lib/errors.js';
import { findAsset } from '../assets/assets.common.js';
import { locatePage } from '../pages/page-location.js';
import { requireAccess } from '../tree/access.js';
import type { NodeRow } from '../tree/tree.repository.js';
import { leaseHeld } from './lease-records.js';
import { presentLeaseState } from './leases.presenter.js';
import { leaseChange, leasesRepository as repo, type ItemKey } from './leases.repository.js';

/** Presence lasts two and a half heartbeats: one late beat does not make a person vanish. */
export const PRESENCE_MS = Math.round(LEASE_HEARTBEAT_MS * 2.5);

/**
 * Check-out leases and presence (docs/decisions.md → check-out is a lease). A lease is one row per item that ends
 * by time (`CMS_LEASE_SECONDS` without renewal), mirrored in the item's own check-out columns in the same
 * transaction whenever its holder changes (lease-records.ts); presence is one row per person with the item open,
 * renewed by the same call. `sweep` ends what ran out.
 */
export function createLeasesService(ctx: AppContext) {
  const leaseMs = ctx.config.leaseMs;

  /** The item at `segments` (404 when missing) and the caller's access to it (403 below `needed`). */
  async function itemAt(actor: Actor, kind: LeaseKind, segments: readonly string[], needed: 'READ' | 'WRITE') {
    let chain: readonly NodeRow[];
    if (kind === 'page') {
      const loc = await locatePage(ctx.db, segments);
      const node = loc.occupant;
      if (!node || node.kind !== 'page') throw notFound('PAGE_NOT_FOUND', `No page "${loc.name}".`);
      chain = [...loc.parentChain, node];
    } else {
      chain = (await findAsset(ctx.db, segments)).chain;
    }
    requireAccess(actor, chain, needed, `this ${kind}`);
    return { id: chain[chain.length - 1]!.id, key: { kind, path: segments.join('/') } satisfies ItemKey };
  }

  async function stateOf(actor: Actor, item: { id: string; key: ItemKey }, now: number): Promise<LeaseState> {
    const [lease, present, saved] = await Promise.all([
      repo.live(ctx.db, item.key, now),
      repo.present(ctx.db, item.key, now),
      repo.lastSaved(ctx.db, item.key.kind, item.id),
    ]);
    const { kind, path } = item.key;
    return presentLeaseState({ id: item.id, kind: kind as LeaseKind, path }, actor.username, lease, present, saved);
  }

  return {
    /** The item's lease and who has it open (READ). */
    async state(actor: Actor, kind: LeaseKind, segments: readonly string[]): Promise<LeaseState> {
      const item = await itemAt(actor, kind, segments, 'READ');
      return stateOf(actor, item, ctx.now());
    },

    /**
     * The heartbeat: `edit` takes or renews the lease (WRITE; 409 LEASE_HELD naming the holder when someone else
     * holds it and `takeover` is not set, nothing written then), `view` only notes presence (READ). Both renew
     * the caller's presence.
     */
    async beat(actor: Actor, kind: LeaseKind, segments: readonly string[], body: LeaseBody): Promise<LeaseState> {
      const mode = body.mode ?? 'edit';
      const item = await itemAt(actor, kind, segments, mode === 'edit' ? 'WRITE' : 'READ');
      const now = ctx.now();
      if (mode === 'edit') {
        const lease = { itemId: item.id, username: actor.username, now, expiresAt: now + leaseMs };
        const taken = await ctx.db.transaction().execute(async (trx) => {
          const row = await repo.take(trx, item.key, { ...lease, takeover: body.takeover ?? false });
          // Taken now (not renewed): the item's row shows its new holder. A renewal leaves the row as it is.
          if (row && row.acquired_at === now && (await repo.mirror(trx, kind, item.id, actor.username))) {
            await recordChanges(trx, [
              leaseChange(kind, item.id, item.key.path, actor.username, isoTime(now), actor.username),
            ]);
          }
          return row;
        });
        if (!taken) {
          const holder = await repo.live(ctx.db, item.key, now);
          if (holder) throw leaseHeld(holder, kind);
        }
      }
      await repo.touchPresence(ctx.db, item.key, { username: actor.username, now, expiresAt: now + PRESENCE_MS });
      return stateOf(actor, item, now);
    },

    /** Ends the caller's lease (if they hold it) and presence: they left the item. */
    async leave(actor: Actor, kind: LeaseKind, segments: readonly string[]): Promise<LeaseState> {
      const item = await itemAt(actor, kind, segments, 'READ').catch(async (e: unknown) => {
        if (!(e instanceof AppError) || e.status !== 404) throw e;
        // Moved or deleted since the caller opened it: leaving its old place ends only what the caller held there.
        const key: ItemKey = { kind, path: segments.join('/') };
        const held = await repo.live(ctx.db, key, ctx.now());
        return { id: held?.item_id ?? '', key };
      });
      await ctx.db.transaction().execute(async (trx) => {
        if (
          (await repo.release(trx, item.key, actor.username)) &&
          (await repo.mirror(trx, kind, item.id, null, actor.username))
        ) {
          await recordChanges(trx, [
            leaseChange(kind, item.id, item.key.path, actor.username, isoTime(ctx.now()), null),
          ]);
        }
        await repo.leavePresence(trx, item.key, actor.username);
      });
      return stateOf(actor, item, ctx.now());
    },

    /** Ends every lease and presence of `username`: they signed out (the sign-out route moves the generation). */
    endAllOf(username: string): Promise<number> {
      return repo.endAllOf(ctx.db, username, new Date(ctx.now()).toISOString());
    },

    /** Ends the leases that ran out (`leasesRepository.sweep`); the change generation moves when a row did. */
    async sweep(): Promise<number> {
      const changed = await repo.sweep(ctx.db, ctx.now());
      if (changed) await ctx.generation.bump();
      return changed;
    },
  };
}
export type LeasesService = ReturnType<typeof createLeasesService>;
