import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef<K extends string> {
  id: K;
  label: ReactNode;
  isDisabled?: boolean;
  content: ReactNode;
  /** The panel itself is a tab stop: set when its content has nothing to focus (an empty preview). */
  tabStop?: boolean;
}

/**
 * Tabs with the tab pattern of WAI-ARIA: one tab stop for the list; arrow keys, Home and End move and select
 * (disabled tabs are passed over). Controlled when `selected` is given. Panels of tabs not shown are unmounted
 * unless `keepMounted` (keep editors' state alive; then hidden).
 *
 * Plain elements, not react-aria's Tabs: its tab panel watches every DOM change inside it (to make itself a tab
 * stop when it holds none) and walks its tree checking visibility each time, which forced a style recalculation
 * per keystroke in the page editor's long panels. Here a panel is a tab stop only when its tab says so.
 */
export function Tabs<K extends string>({
  label,
  tabs,
  selected,
  onSelectedChange,
  keepMounted,
  className,
}: {
  /** Accessible name of the tab list. */
  label: string;
  tabs: readonly TabDef<K>[];
  selected?: K;
  onSelectedChange?: (key: K) => void;
  keepMounted?: boolean;
  className?: string;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const enabled = tabs.filter((t) => !t.isDisabled);
  const [own, setOwn] = useState<K | undefined>(enabled[0]?.id);
  const current = selected ?? own;
  const tabId = (id: K) => `${base}-tab-${id}`;
  const panelId = (id: K) => `${base}-panel-${id}`;

  const select = (id: K) => {
    if (selected === undefined) setOwn(id);
    onSelectedChange?.(id);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (!enabled.length) return;
    const at = enabled.findIndex((t) => t.id === current);
    const n = enabled.length;
    const to: Record<string, number> = { ArrowRight: (at + 1) % n, ArrowLeft: (at - 1 + n) % n, Home: 0, End: n - 1 };
    const next = to[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const id = enabled[next]!.id;
    select(id);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(id))}`)?.focus();
  };

  return (
    <div className={['tabs', className ?? ''].filter(Boolean).join(' ')}>
      <div role="tablist" aria-label={label} className="tabs__list" ref={list} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={tabId(t.id)}
            className="tabs__tab"
            aria-selected={t.id === current}
            aria-controls={panelId(t.id)}
            aria-disabled={t.isDisabled || undefined}
            tabIndex={t.id === current ? 0 : -1}
            data-selected={t.id === current || undefined}
            data-disabled={t.isDisabled || undefined}
            onClick={() => !t.isDisabled && select(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs
        .filter((t) => keepMounted || t.id === current)
        .map((t) => (
          <div
            key={t.id}
            role="tabpanel"
            id={panelId(t.id)}
            aria-labelledby={tabId(t.id)}
            className="tabs__panel"
            tabIndex={t.tabStop ? 0 : undefined}
            hidden={t.id !== current}
          >
            {t.content}
          </div>
        ))}
    </div>
  );
}
