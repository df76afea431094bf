import { memo, useEffect, useMemo } from 'react';
import { widgetContentFields } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { FieldsForm, useFieldsForm, type FieldsFormController } from '../../../kit/fields-form';
import { useAssetUsage } from '../api/asset-usage';
import {
  isBinaryWidget,
  isLinkedWidget,
  sharedPath,
  widgetExcerpt,
  type EditorWidget,
  type Fields,
} from '../lib/editor-doc';

/** What a widget card can ask the editor to do. */
export interface WidgetActions {
  changeFields(key: string, fields: Fields): void;
  move(key: string, delta: number): void;
  moveTo(key: string, region: string): void;
  duplicate(key: string): void;
  remove(key: string): void;
  makeShared(key: string): void;
  linkShared(key: string): void;
  detach(key: string): void;
  chooseBinary(key: string): void;
  dragStart(key: string): void;
  dropBefore(key: string): void;
}

/**
 * Whether a card (or a part of it) would draw the same: its props are the same, or only the fields of a local
 * widget changed. Those come from its own form (a keystroke), which already shows them; anything else that changes
 * them (an undo, a reload) draws the forms again through a new key. So typing redraws no card at all.
 */
export function sameCard<P extends { widget: EditorWidget }>(prev: P, next: P): boolean {
  for (const k of Object.keys(next) as (keyof P)[]) {
    if (k !== 'widget' && prev[k] !== next[k]) return false;
  }
  const a = prev.widget;
  const b = next.widget;
  if (a === b) return true;
  const local = !isBinaryWidget(b.type) && !isLinkedWidget(b);
  return local && a.key === b.key && a.id === b.id && a.type === b.type && a.shared === b.shared && a.share === b.share;
}

/** A card's content (its form, or its library asset's view): the same for any position in the region. */
export const CardBody = memo(function CardBody({
  widget,
  isReadOnly,
  actions,
  controllers,
  assetHref,
  pagePath,
}: AssetViewProps & { controllers: Map<string, FieldsFormController> }) {
  const linked = isLinkedWidget(widget);
  const binary = isBinaryWidget(widget.type);
  return (
    <div className="widget-card__body">
      {binary ? (
        <BinaryWidget
          widget={widget}
          isReadOnly={isReadOnly}
          actions={actions}
          assetHref={assetHref}
          pagePath={pagePath}
        />
      ) : linked ? (
        <LinkedWidget
          widget={widget}
          isReadOnly={isReadOnly}
          actions={actions}
          assetHref={assetHref}
          pagePath={pagePath}
        />
      ) : (
        <LocalWidgetForm widget={widget} isReadOnly={isReadOnly} actions={actions} controllers={controllers} />
      )}
      {widget.share === 'create' && widget.shared && (
        <p className="widget-card__note">
          Becomes the shared asset <code>{sharedPath(widget.shared)}</code> when you save.
        </p>
      )}
    </div>
  );
}, sameCard);

/** The kit's form of a local widget's content; every edit goes to the editor's doc. */
function LocalWidgetForm({
  widget,
  isReadOnly,
  actions,
  controllers,
}: {
  widget: EditorWidget;
  isReadOnly: boolean;
  actions: WidgetActions;
  controllers: Map<string, FieldsFormController>;
}) {
  // "Required" is what a new shared asset needs; a page's own content may leave any field empty.
  const defs = useMemo(() => widgetContentFields(widget.type).map((d) => ({ ...d, required: false })), [widget.type]);
  const controller = useFieldsForm({ defs, initial: widget.fields, creating: false });
  const key = widget.key;
  useEffect(() => {
    controllers.set(key, controller);
    return () => {
      controllers.delete(key);
    };
  }, [controllers, key, controller]);
  if (defs.length === 0) return <p className="widget-card__note">This widget has no settings.</p>;
  return (
    <FieldsForm
      controller={controller}
      isReadOnly={isReadOnly}
      onValuesChange={() => actions.changeFields(key, { ...widget.fields, ...controller.form.getValues() })}
    />
  );
}

/** How many other pages use a shared asset, in words. */
function UsageLine({ assetPath, pagePath }: { assetPath: string; pagePath: string }) {
  const usage = useAssetUsage(assetPath);
  if (usage.isPending) return <span className="widget-card__muted">Counting the pages that use it…</span>;
  if (usage.isError) return null;
  const others = new Set(usage.data.usedBy.map((u) => u.path).filter((p) => p !== pagePath)).size;
  return (
    <span className="widget-card__muted">
      {others === 0 ? 'No other page uses it.' : `${others} other ${others === 1 ? 'page uses' : 'pages use'} it.`}
    </span>
  );
}

/** What the views of a widget's library asset need. */
interface AssetViewProps {
  widget: EditorWidget;
  isReadOnly: boolean;
  actions: WidgetActions;
  assetHref: (assetPath: string) => string;
  pagePath: string;
}

/** A widget linked to a shared asset: its content read-only, where to edit it, how to detach it. */
function LinkedWidget({ widget, isReadOnly, actions, assetHref, pagePath }: AssetViewProps) {
  const path = sharedPath(widget.shared!);
  const defs = widgetContentFields(widget.type);
  const controller = useFieldsForm({ defs, initial: widget.fields });
  return (
    <div className="linked-widget">
      <p className="linked-widget__line">
        Shared asset <code>{path}</code>.{' '}
        {widget.share !== 'link' && <UsageLine assetPath={path} pagePath={pagePath} />}
      </p>
      <p className="widget-card__muted">
        Its content is edited in the asset library; every page that links it shows the change.
      </p>
      <div className="linked-widget__actions">
        <a className="btn btn--secondary btn--sm" href={assetHref(path)}>
          Edit in asset library
        </a>
        {!isReadOnly && (
          <Button size="sm" onPress={() => actions.detach(widget.key)}>
            Detach (make a local copy)
          </Button>
        )}
      </div>
      <details className="linked-widget__content">
        <summary>Show its content: {widgetExcerpt(widget)}</summary>
        <FieldsForm controller={controller} isReadOnly />
      </details>
    </div>
  );
}

/** An image, file or Flash widget: it shows a library asset, chosen in the asset picker. */
function BinaryWidget({ widget, isReadOnly, actions, assetHref, pagePath }: AssetViewProps) {
  const image = widget.type === 'cmsImage';
  const noun = image ? 'image' : 'file';
  if (!widget.shared) {
    return (
      <div className="linked-widget">
        <p className="widget-card__muted">No {noun} chosen yet.</p>
        {!isReadOnly && (
          <Button size="sm" variant="primary" onPress={() => actions.chooseBinary(widget.key)} data-action="choose">
            Choose {image ? 'an image' : 'a file'}…
          </Button>
        )}
      </div>
    );
  }
  const path = sharedPath(widget.shared);
  const alt = widget.fields.alttext ?? '';
  return (
    <div className="linked-widget linked-widget--binary">
      {image && (
        <img
          className="linked-widget__image"
          src={`/cms/rest/assets/binary/${path.split('/').map(encodeURIComponent).join('/')}`}
          alt={alt}
        />
      )}
      <div>
        <p className="linked-widget__line">
          <code>{path}</code>
          {image && (
            <span className="widget-card__muted"> · Alt text: {alt ? `“${alt}”` : 'none (set it in the library)'}</span>
          )}
        </p>
        <p>{widget.share !== 'link' && <UsageLine assetPath={path} pagePath={pagePath} />}</p>
        <div className="linked-widget__actions">
          {!isReadOnly && (
            <Button size="sm" onPress={() => actions.chooseBinary(widget.key)} data-action="choose">
              Choose another {noun}…
            </Button>
          )}
          <a className="btn btn--secondary btn--sm" href={assetHref(path)}>
            Edit in asset library
          </a>
        </div>
      </div>
    </div>
  );
}
