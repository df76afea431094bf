import { z } from 'zod';

/**
 * Check-out leases and presence (`/cms/rest/leases/{kind}/{path}`). Opening an item does not check it out; the
 * editor's first change takes a lease, renewed about every 30 s while the editor is open, released when the
 * person leaves; a lease not renewed ends after `CMS_LEASE_SECONDS` (120). The same call is the presence heartbeat:
 * `mode: 'view'` says "I have this open" without taking the lease.
 */
export const LeaseKind = z.enum(['page', 'asset']);
export type LeaseKind = z.infer<typeof LeaseKind>;

/** How often an open editor renews its lease and presence (ms); presence lasts about two and a half beats. */
export const LEASE_HEARTBEAT_MS = 30_000;

export const LeaseBody = z
  .object({
    /** `edit` takes or renews the lease; `view` only says the caller has the item open. */
    mode: z.enum(['edit', 'view']).default('edit'),
    /** With `edit`: take the lease over from whoever holds it (they are told at their next renewal). */
    takeover: z.boolean().default(false),
  })
  .strict();
export type LeaseBody = z.input<typeof LeaseBody>;

/** A live lease: who holds it, since when, until when unless renewed (ISO 8601). */
export const Lease = z.object({
  username: z.string(),
  since: z.string(),
  expiresAt: z.string(),
  /** Whose lease this one took over (until its holder renews), or null. */
  takenFrom: z.string().nullable(),
});
export type Lease = z.infer<typeof Lease>;

/** Someone who has the item open now (`editing` when they hold its lease). */
export const Presence = z.object({
  username: z.string(),
  since: z.string(),
  editing: z.boolean(),
});
export type Presence = z.infer<typeof Presence>;

/** The lease of an item and who has it open, as the caller sees it (the caller is left out of `present`). */
export const LeaseState = z.object({
  kind: LeaseKind,
  path: z.string(),
  id: z.string(),
  lease: Lease.nullable(),
  /** Whether the caller holds the lease. */
  mine: z.boolean(),
  present: z.array(Presence),
  /** The item's last save: who (null where the item does not keep it: assets) and when; for the conflict dialog. */
  lastSaved: z.object({ by: z.string().nullable(), at: z.string() }).nullable(),
});
export type LeaseState = z.infer<typeof LeaseState>;
