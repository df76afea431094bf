import { useMemo } from 'react';
import type { Page } from '../../../../shared/api/pages';
import { Button } from '../../../components/ui/button';
import { PlusIcon } from '../../../components/ui/icons';
import { DeferRichText } from '../../../kit/defer-rich-text';
import type { FieldsFormController } from '../../../kit/fields-form';
import { WidgetTypeIcon } from '../../../kit/type-icon';
import { widgetExcerpt, widgetLabel, type EditorDoc } from '../lib/editor-doc';
import { WIDGET_DRAG_TYPE, WidgetCard, type WidgetActions } from './widget-card';

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
                {widgets.map((w, i) => (
                  <WidgetCard
                    key={`${w.key}:${version}`}
                    widget={w}
                    region={region.name}
                    index={i}
                    count={widgets.length}
                    otherRegions={othersOf.get(region.name) ?? []}
                    pagePath={pagePath}
                    isReadOnly={isReadOnly}
                    actions={actions}
                    controllers={controllers}
                    assetHref={assetHref}
                  />
                ))}
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
