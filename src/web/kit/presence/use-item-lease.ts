import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../shared/api/client';
import { LEASE_HEARTBEAT_MS, Lease, type LeaseKind, type LeaseState } from '../../../shared/api/leases';
import { useApi } from '../../lib/api';
import { useChangeEvents } from '../../lib/live-events';

/** What an editor knows of its item's lease and who else has it open. */
export interface ItemLease {
  /** The last answer: the lease and the others present (null before the first). */
  state: LeaseState | null;
  /** Someone else's lease while the caller has none: they are editing (the caller may look, or take over). */
  heldBy: Lease | null;
  /** Who took the caller's lease over (the editor says so at once); null otherwise. */
  takenOverBy: string | null;
  /** Takes the lease over from its holder (their editor is told at once, by the lease's live event). */
  takeOver(): Promise<void>;
  /** True while a takeover runs. */
  takingOver: boolean;
}

function leaseOfProblem(err: unknown): Lease | null {
  if (!isApiError(err) || err.code !== 'LEASE_HELD') return null;
  const parsed = Lease.safeParse((err.problem as { lease?: unknown } | undefined)?.lease);
  return parsed.success ? parsed.data : null;
}

/**
 * The heartbeat of an open editor (docs/decisions.md → check-out is a lease): says every 30 s that the user has
 * the item open (presence), and once `editing` turns true (the first change) takes the lease and renews it with
 * the same call. Leaving (unmount, `pagehide`) ends both. A 409 LEASE_HELD means someone else has it: before the
 * user held it, they are `heldBy`; after, it was taken over (`takenOverBy`), and the heartbeat only watches until
 * the user takes it back. A lease change of the item by someone else (a live event) beats at once.
 */
export function useItemLease(kind: LeaseKind, segments: readonly string[], editing: boolean): ItemLease {
  const api = useApi();
  const [state, setState] = useState<LeaseState | null>(null);
  const [heldBy, setHeldBy] = useState<Lease | null>(null);
  const [takenOverBy, setTakenOverBy] = useState<string | null>(null);
  const [takingOver, setTakingOver] = useState(false);
  const key = segments.join('/');
  const wantEdit = useRef(false);
  const hadLease = useRef(false);
  const blocked = useRef(false);
  if (editing) wantEdit.current = true;

  const beat = useCallback(
    async (takeover = false) => {
      const segs = key.split('/');
      const mode = (wantEdit.current && !blocked.current) || takeover ? 'edit' : 'view';
      try {
        const s = await api.leases.beat(kind, segs, { mode, takeover });
        setState(s);
        if (mode === 'edit') {
          hadLease.current = s.mine;
          blocked.current = false;
          setHeldBy(null);
          setTakenOverBy(null);
        } else {
          setHeldBy(s.lease && !s.mine ? s.lease : null);
        }
      } catch (err) {
        const lease = leaseOfProblem(err);
        if (!lease) return;
        blocked.current = true;
        setHeldBy(lease);
        if (hadLease.current) {
          hadLease.current = false;
          setTakenOverBy(lease.username);
        }
        // Still there, only watching now.
        void api.leases.beat(kind, segs, { mode: 'view' }).then(setState, () => undefined);
      }
    },
    [api, kind, key],
  );

  // Someone else's lease change of this item (taken, taken over, ended: live events) is learnt at once, not at the
  // next beat: the holder whose lease was taken over is told, and a reader may edit as soon as the holder leaves.
  const itemId = state?.id;
  useChangeEvents((e) => {
    if (e.lease && itemId !== undefined && e.itemId === itemId) void beat();
  });

  // The first change takes the lease at once (not at the next beat).
  useEffect(() => {
    if (editing && !hadLease.current && !blocked.current) void beat();
  }, [editing, beat]);

  useEffect(() => {
    wantEdit.current = false;
    hadLease.current = false;
    blocked.current = false;
    setHeldBy(null);
    setTakenOverBy(null);
    setState(null);
    void beat();
    const timer = window.setInterval(() => void beat(), LEASE_HEARTBEAT_MS);
    const segs = key.split('/');
    const onHide = () => void api.leases.leave(kind, segs, { keepalive: true }).catch(() => undefined);
    window.addEventListener('pagehide', onHide);
    return () => {
      window.clearInterval(timer);
      window.removeEventListener('pagehide', onHide);
      void api.leases.leave(kind, segs).catch(() => undefined);
    };
  }, [api, kind, key, beat]);

  const takeOver = useCallback(async () => {
    setTakingOver(true);
    try {
      wantEdit.current = true;
      await beat(true);
    } finally {
      setTakingOver(false);
    }
  }, [beat]);

  return { state, heldBy, takenOverBy, takeOver, takingOver };
}
