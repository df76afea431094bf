import { useEffect, useState } from 'react';
import type { LeaseKind, LeaseState } from '../../../shared/api/leases';
import { useApi } from '../../lib/api';

/**
 * Who saved the item last and when, read when `open` turns true (the conflict dialog opens): null until known, or
 * when it cannot be read (the dialog then says "someone else").
 */
export function useLastSaved(kind: LeaseKind, segments: readonly string[], open: boolean): LeaseState['lastSaved'] {
  const api = useApi();
  const [saved, setSaved] = useState<LeaseState['lastSaved']>(null);
  const key = segments.join('/');
  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    api.leases.get(kind, key.split('/'), controller.signal).then(
      (s) => setSaved(s.lastSaved),
      () => setSaved(null),
    );
    return () => controller.abort();
  }, [api, kind, key, open]);
  return open ? saved : null;
}
