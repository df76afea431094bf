import { createContext, useContext, useEffect, useRef } from 'react';

/** A screen's own "Skip to …" link, offered after the frame's "Skip to main content". */
export interface SkipLink {
  /** Unique among the screen's links (the link's `href` fragment). */
  id: string;
  label: string;
  /** Moves the focus to where the link skips to. */
  go: () => void;
}

/** Adds a link (`on`) or takes it away; given by the app's frame. */
export type RegisterSkipLink = (link: SkipLink, on: boolean) => void;

export const SkipLinksContext = createContext<RegisterSkipLink | null>(null);

/** Offers `label` among the frame's skip links while the calling screen is shown; `go` is read when used. */
export function useSkipLink(id: string, label: string, go: () => void) {
  const register = useContext(SkipLinksContext);
  const latest = useRef(go);
  latest.current = go;
  useEffect(() => {
    if (!register) return;
    const link: SkipLink = { id, label, go: () => latest.current() };
    register(link, true);
    return () => register(link, false);
  }, [register, id, label]);
}
