import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

/**
 * The editor's two tabs (Content, Properties), both panels kept mounted. Written out rather than with the kit's
 * `Tabs`: react-aria's tab panel watches every DOM change inside it (to give itself a tab stop when it holds none)
 * and walks its tree checking visibility on each, which forces a style recalculation per render of a long page and
 * per keystroke. Here the panel is never a tab stop itself (its widgets always hold one). The tab list keeps the
 * pattern: one tab stop, arrows, Home and End move and select.
 */
export function EditorTabs<K extends string>({
  label,
  tabs,
  selected,
  onSelectedChange,
}: {
  label: string;
  tabs: readonly { id: K; label: ReactNode; content: ReactNode }[];
  selected: K;
  onSelectedChange: (key: K) => void;
}) {
  const base = useId();
  const list = useRef<HTMLDivElement>(null);
  const tabId = (id: K) => `${base}-tab-${id}`;
  const panelId = (id: K) => `${base}-panel-${id}`;
  const onKeyDown = (event: KeyboardEvent) => {
    const at = tabs.findIndex((t) => t.id === selected);
    const next =
      event.key === 'ArrowRight'
        ? (at + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (at - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : -1;
    if (next < 0) return;
    event.preventDefault();
    onSelectedChange(tabs[next]!.id);
    list.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(tabs[next]!.id))}`)?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" ref={list} onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={tabId(t.id)}
            className="tabs__tab page-editor__tab"
            aria-selected={t.id === selected}
            aria-controls={panelId(t.id)}
            tabIndex={t.id === selected ? 0 : -1}
            data-selected={t.id === selected || undefined}
            onClick={() => onSelectedChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          role="tabpanel"
          id={panelId(t.id)}
          aria-labelledby={tabId(t.id)}
          className="tabs__panel"
          hidden={t.id !== selected}
        >
          {t.content}
        </div>
      ))}
    </div>
  );
}
