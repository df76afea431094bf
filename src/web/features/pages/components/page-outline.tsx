import { memo, useId, useState, type FocusEvent, type KeyboardEvent } from 'react';
import type { Page } from '../../../../shared/api/pages';
import { WidgetTypeIcon } from '../../../kit/type-icon';
import { AlertIcon } from '../../../components/ui/icons';
import { widgetExcerpt, widgetLabel, type EditorDoc } from '../lib/editor-doc';
import type { SaveProblem } from '../lib/save-problems';

/**
 * The page's outline: regions in template order, each with its widgets (type and a short excerpt). Choosing a
 * widget scrolls to it and moves the focus into it; choosing a region goes to its heading.
 */
export const PageOutline = memo(function PageOutline({
  page,
  doc,
  problems,
  onGoToWidget,
  onGoToRegion,
}: {
  page: Page;
  doc: EditorDoc;
  /** Why the last save did not go through: the widgets they are about are marked. */
  problems: readonly SaveProblem[];
  onGoToWidget: (key: string) => void;
  onGoToRegion: (region: string) => void;
}) {
  const hintId = useId();
  // One Tab stop for the whole list (Up, Down, Home and End move in it): a long page's outline is not fifty stops
  // on the way to the content. The stop stays where the person last was.
  const [active, setActive] = useState<string | null>(null);
  const items = page.body.flatMap((region) => [
    `region:${region.name}`,
    ...(region.editable ? (doc.regions[region.name] ?? []).map((w) => `widget:${w.key}`) : []),
  ]);
  const stop = active !== null && items.includes(active) ? active : items[0];
  const tabIndexOf = (item: string) => (item === stop ? 0 : -1);
  const onKeyDown = (event: KeyboardEvent<HTMLOListElement>) => {
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-outline-item]')];
    const at = buttons.indexOf(event.target as HTMLButtonElement);
    const to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: buttons.length - 1 }[event.key];
    if (at < 0 || to === undefined) return;
    event.preventDefault();
    buttons[Math.max(0, Math.min(buttons.length - 1, to))]?.focus();
  };
  const onFocus = (event: FocusEvent<HTMLOListElement>) => {
    const item = (event.target as HTMLElement).dataset.outlineItem;
    if (item) setActive(item);
  };

  // Beside the content on wide screens; above it, folded, on narrow ones (opened when wanted).
  const [open, setOpen] = useState(
    () => typeof window === 'undefined' || window.matchMedia('(min-width: 75rem)').matches,
  );
  return (
    <nav className="page-outline" aria-label="Page outline">
      <details
        className="page-outline__details"
        open={open}
        onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary className="page-outline__title">Outline</summary>
        <p id={hintId} className="visually-hidden">
          Up and Down arrow keys move through the outline.
        </p>
        <ol className="page-outline__regions" onKeyDown={onKeyDown} onFocus={onFocus}>
          {page.body.map((region) => {
            const widgets = region.editable
              ? (doc.regions[region.name] ?? []).map((w) => ({
                  key: w.key,
                  type: w.type,
                  excerpt: widgetExcerpt(w, 40),
                  shared: Boolean(w.shared),
                  problems: problems.filter((p) => p.key === w.key).length,
                }))
              : region.widgets.map((w, i) => ({
                  key: `${region.name}:${i}`,
                  type: w.type,
                  excerpt: widgetExcerpt({ type: w.type, fields: w.asset.fields }, 40),
                  shared: false,
                  problems: 0,
                }));
            return (
              <li
                key={region.name}
                className={
                  region.editable ? 'page-outline__region' : 'page-outline__region page-outline__region--template'
                }
              >
                <button
                  type="button"
                  className="page-outline__region-name"
                  data-outline-item={`region:${region.name}`}
                  tabIndex={tabIndexOf(`region:${region.name}`)}
                  aria-describedby={hintId}
                  onClick={() => onGoToRegion(region.name)}
                >
                  {region.name}
                  {!region.editable && <span className="page-outline__tag"> · template</span>}
                </button>
                {widgets.length === 0 ? (
                  <p className="page-outline__empty">No widgets</p>
                ) : (
                  <ol className="page-outline__widgets">
                    {widgets.map((w) => (
                      <li key={w.key}>
                        {region.editable ? (
                          <button
                            type="button"
                            className={`page-outline__widget${w.problems ? ' page-outline__widget--invalid' : ''}`}
                            data-outline-item={`widget:${w.key}`}
                            tabIndex={tabIndexOf(`widget:${w.key}`)}
                            aria-describedby={hintId}
                            onClick={() => onGoToWidget(w.key)}
                          >
                            <WidgetTypeIcon type={w.type} className="page-outline__icon" />
                            <span className="page-outline__text">
                              <span className="page-outline__type">
                                {widgetLabel(w.type)}
                                {w.shared && ' (shared)'}
                                {w.problems > 0 && (
                                  <span className="page-outline__problem">
                                    <span className="visually-hidden"> · </span>
                                    <AlertIcon aria-hidden="true" className="page-outline__problem-icon" />
                                    {w.problems === 1 ? '1 problem' : `${w.problems} problems`}
                                  </span>
                                )}
                              </span>
                              <span className="page-outline__excerpt">{w.excerpt}</span>
                            </span>
                          </button>
                        ) : (
                          <span className="page-outline__widget page-outline__widget--static">
                            <WidgetTypeIcon type={w.type} className="page-outline__icon" />
                            <span className="page-outline__text">
                              <span className="page-outline__type">{widgetLabel(w.type)}</span>
                              <span className="page-outline__excerpt">{w.excerpt}</span>
                            </span>
                          </span>
                        )}
                      </li>
                    ))}
                  </ol>
                )}
              </li>
            );
          })}
        </ol>
      </details>
    </nav>
  );
});
