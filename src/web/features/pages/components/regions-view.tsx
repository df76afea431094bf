import { startTransition, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Page } from '../../../../shared/api/pages';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { DeferRichText } from '../../../kit/defer-rich-text';
import type { FieldsFormController } from '../../../kit/fields-form';
import { WidgetTypeIcon } from '../../../kit/type-icon';
import { widgetExcerpt, widgetLabel, type EditorDoc, type EditorWidget } from '../lib/editor-doc';
import type { WidgetActions } from './widget-card-body';
import { WIDGET_DRAG_TYPE, WidgetCard } from './widget-card';
import { useVisualEditorKeeps } from '../../../kit/controls/rich-text/rich-text-deferred';
import { applyHandoff, canStartLite, RegionCount, WidgetCardLite, type Handoff } from './widget-card-lite';

/** Cards drawn whole at once on opening; the rest start lite and become whole a few at a time when idle. */
const WHOLE_AT_ONCE = 4;
const WHOLE_PER_STEP = 3;

/** No step while a person types or clicks: a key waits for no card being drawn. */
const QUIET_MS = 600;
let lastInput = -Infinity;
if (typeof document !== 'undefined') {
  for (const type of ['keydown', 'pointerdown']) {
    document.addEventListener(type, () => (lastInput = performance.now()), { capture: true, passive: true });
  }
}

/** Runs `run` once the browser is idle and no input came for a moment; answers how to cancel it. */
const whenIdle = (run: () => void): (() => void) => {
  let cancel = () => {};
  const wait = () => {
    const quietIn = lastInput + QUIET_MS - performance.now();
    if (quietIn > 0) {
      const t = window.setTimeout(wait, quietIn);
      cancel = () => window.clearTimeout(t);
    } else if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(run, { timeout: 500 });
      cancel = () => cancelIdleCallback(id);
    } else {
      const t = window.setTimeout(run, 16);
      cancel = () => window.clearTimeout(t);
    }
  };
  wait();
  return () => cancel();
};

/**
 * Which cards are drawn whole: the first few, then more each time the browser is idle (a transition, so a key or
 * click in between goes first), and any card woken by the pointer, focus or a press — focus then goes where the
 * person went in the lite card (`applyHandoff`). Only widgets there when the page opened start lite; one added
 * later is whole.
 */
function useWholeCards(doc: EditorDoc) {
  const [lite] = useState(() => new Set(Object.values(doc.regions).flatMap((ws) => ws.map((w) => w.key))));
  const total = lite.size;
  const keeps = useVisualEditorKeeps();
  const [whole, setWhole] = useState(WHOLE_AT_ONCE);
  const [woken, setWoken] = useState<ReadonlySet<string>>(() => new Set());
  const handoffs = useRef(new Map<string, Handoff>());
  useEffect(() => {
    if (whole >= total) return;
    return whenIdle(() => startTransition(() => setWhole((n) => n + WHOLE_PER_STEP)));
  }, [whole, total]);
  // After every commit: a woken card is whole now, so the person is taken to the same place in it.
  useLayoutEffect(() => {
    for (const [key, handoff] of handoffs.current) {
      const card = document.querySelector<HTMLElement>(`[data-widget-key="${CSS.escape(key)}"]:not([data-lite])`);
      if (!card) continue;
      handoffs.current.delete(key);
      applyHandoff(card, handoff);
    }
  });
  const wake = useCallback((key: string, handoff?: Handoff) => {
    if (handoff) handoffs.current.set(key, handoff);
    setWoken((s) => (s.has(key) && !handoff ? s : new Set(s).add(key)));
  }, []);
  // Asked once per widget object (the visual editor's check parses the HTML): a keystroke draws the regions again.
  const startsLite = useMemo(() => {
    const known = new WeakMap<EditorWidget, boolean>();
    return (w: EditorWidget) => known.get(w) ?? known.set(w, canStartLite(w, keeps)).get(w)!;
  }, [keeps]);
  const isWhole = (w: EditorWidget, order: number) =>
    order < whole || !lite.has(w.key) || woken.has(w.key) || !startsLite(w);
  return { isWhole, wake };
}

/**
 * The template's regions in template order, each labelled with its name. Editable regions hold the page's
 * widgets and an "Add widget" button; regions the template fills are shown read-only, set apart.
 */
export function RegionsView({
  page,
  doc,
  version,
  pagePath,
  isReadOnly,
  regionNames,
  actions,
  controllers,
  assetHref,
  onAdd,
  onDropAtEnd,
}: {
  page: Page;
  doc: EditorDoc;
  /** Forms start again from the doc when it changes (a reload, a restored draft). */
  version: number;
  pagePath: string;
  isReadOnly: boolean;
  regionNames: readonly string[];
  actions: WidgetActions;
  controllers: Map<string, FieldsFormController>;
  assetHref: (assetPath: string) => string;
  onAdd: (region: string) => void;
  onDropAtEnd: (region: string) => void;
}) {
  // One array per region for the page's life, so the (memoised) cards see the same props while another is edited.
  const othersOf = useMemo(
    () => new Map(regionNames.map((name) => [name, regionNames.filter((r) => r !== name)])),
    [regionNames],
  );
  const { isWhole, wake } = useWholeCards(doc);
  let order = 0;
  // Rich text shows as static HTML until clicked or focused into: a long page opens without an editor per widget.
  return (
    <DeferRichText.Provider value={true}>
      <div className="regions">
        {page.body.map((region) => {
          const headingId = `region-${region.name}`;
          if (!region.editable) {
            return (
              <section key={region.name} className="region region--template" aria-labelledby={headingId}>
                <h2 id={headingId} className="region__title" tabIndex={-1} data-region-heading={region.name}>
                  {region.name} <span className="region__tag">From the template · not editable here</span>
                </h2>
                {region.widgets.length === 0 ? (
                  <p className="region__empty">The template puts nothing here.</p>
                ) : (
                  <ul className="region__template-widgets">
                    {region.widgets.map((w, i) => (
                      <li key={i} className="template-widget">
                        <WidgetTypeIcon type={w.type} className="template-widget__icon" />
                        <span>
                          <strong>{widgetLabel(w.type)}</strong> —{' '}
                          {widgetExcerpt({ type: w.type, fields: w.asset.fields }, 80)}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          }
          const widgets = doc.regions[region.name] ?? [];
          return (
            <section key={region.name} className="region" aria-labelledby={headingId}>
              <h2 id={headingId} className="region__title" tabIndex={-1} data-region-heading={region.name}>
                {region.name}{' '}
                <span className="region__count">
                  {widgets.length} {widgets.length === 1 ? 'widget' : 'widgets'}
                </span>
              </h2>
              {widgets.length === 0 && <p className="region__empty">No widgets yet.</p>}
              <div className="region__widgets" data-region-widgets={region.name}>
                <RegionCount.Provider value={widgets.length}>
                  {widgets.map((w, i) => {
                    // What a lite card and a whole one both show.
                    const card = {
                      widget: w,
                      region: region.name,
                      index: i,
                      isLast: i === widgets.length - 1,
                      isReadOnly,
                    };
                    return isWhole(w, order++) ? (
                      <WidgetCard
                        key={`${w.key}:${version}`}
                        {...card}
                        otherRegions={othersOf.get(region.name) ?? []}
                        pagePath={pagePath}
                        actions={actions}
                        controllers={controllers}
                        assetHref={assetHref}
                      />
                    ) : (
                      <WidgetCardLite key={`${w.key}:${version}`} {...card} onWake={wake} />
                    );
                  })}
                </RegionCount.Provider>
              </div>
              {!isReadOnly && (
                <div
                  className="region__end"
                  onDragOver={(e) => {
                    if (e.dataTransfer.types.includes(WIDGET_DRAG_TYPE)) e.preventDefault();
                  }}
                  onDrop={(e) => {
                    if (!e.dataTransfer.types.includes(WIDGET_DRAG_TYPE)) return;
                    e.preventDefault();
                    onDropAtEnd(region.name);
                  }}
                >
                  <Button size="sm" onPress={() => onAdd(region.name)} data-add-widget={region.name}>
                    <PlusIcon /> Add widget to {region.name}
                  </Button>
                </div>
              )}
            </section>
          );
        })}
      </div>
    </DeferRichText.Provider>
  );
}
