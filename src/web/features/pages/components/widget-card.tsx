import { memo, useEffect, useId, useMemo, type DragEvent } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Separator, type Key } from 'react-aria-components';
import { widgetContentFields } from '../../../../shared/registry';
import { Button } from '../../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, LinkIcon, MoreIcon } from '../../../components/ui/icons';
import { FieldsForm, useFieldsForm, type FieldsFormController } from '../../../kit/fields-form';
import { useAssetUsage } from '../api/asset-usage';
import {
  canShare,
  isBinaryWidget,
  sharedPath,
  widgetExcerpt,
  widgetLabel,
  type EditorWidget,
  type Fields,
} from '../lib/editor-doc';
import { CardTitle } from './widget-card-lite';

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

/** The MIME type of a widget being dragged inside the editor. */
export const WIDGET_DRAG_TYPE = 'application/x-folio-widget';

/**
 * One widget of an editable region: its type and content in a few words, its form from the kit (rich text edits
 * in place), and its actions — Move up/down (keyboard), a drag handle (pointer), move to another region,
 * duplicate, share, remove. A linked shared asset is read-only here, with "Edit in asset library" and "Detach".
 */
export const WidgetCard = memo(WidgetCardView, sameCard);

/**
 * Whether a card (or a part of it) would draw the same: its props are the same, or only the fields of a local
 * widget changed. Those come from its own form (a keystroke), which already shows them; anything else that changes
 * them (an undo, a reload) draws the forms again through a new key. So typing redraws no card at all.
 */
function sameCard<P extends { widget: EditorWidget }>(prev: P, next: P): boolean {
  for (const k of Object.keys(next) as (keyof P)[]) {
    if (k !== 'widget' && prev[k] !== next[k]) return false;
  }
  const a = prev.widget;
  const b = next.widget;
  if (a === b) return true;
  const local = !isBinaryWidget(b.type) && !(b.shared !== undefined && b.share !== 'create');
  return local && a.key === b.key && a.id === b.id && a.type === b.type && a.shared === b.shared && a.share === b.share;
}

interface WidgetCardProps {
  widget: EditorWidget;
  region: string;
  index: number;
  count: number;
  otherRegions: readonly string[];
  pagePath: string;
  isReadOnly: boolean;
  actions: WidgetActions;
  controllers: Map<string, FieldsFormController>;
  assetHref: (assetPath: string) => string;
}

function WidgetCardView({
  widget,
  region,
  index,
  count,
  otherRegions,
  pagePath,
  isReadOnly,
  actions,
  controllers,
  assetHref,
}: WidgetCardProps) {
  const headingId = useId();
  const label = widgetLabel(widget.type);
  const linked = widget.shared !== undefined && widget.share !== 'create';

  const onDragStart = (event: DragEvent) => {
    event.dataTransfer.setData(WIDGET_DRAG_TYPE, widget.key);
    event.dataTransfer.effectAllowed = 'move';
    actions.dragStart(widget.key);
  };

  return (
    <article
      className={`widget-card${linked ? ' widget-card--linked' : ''}`}
      aria-labelledby={headingId}
      data-widget-key={widget.key}
      tabIndex={-1}
      // Capture phase: a widget dropped on a rich text field is moved, not pasted into the text.
      onDragOverCapture={(e) => {
        if (e.dataTransfer.types.includes(WIDGET_DRAG_TYPE)) {
          e.preventDefault();
          e.stopPropagation();
          e.currentTarget.classList.add('widget-card--drop-target');
        }
      }}
      onDragLeave={(e) => e.currentTarget.classList.remove('widget-card--drop-target')}
      onDropCapture={(e) => {
        e.currentTarget.classList.remove('widget-card--drop-target');
        if (!e.dataTransfer.types.includes(WIDGET_DRAG_TYPE)) return;
        e.preventDefault();
        e.stopPropagation();
        actions.dropBefore(widget.key);
      }}
    >
      <header className="widget-card__header">
        {!isReadOnly && (
          <span
            className="widget-card__grip"
            draggable
            onDragStart={onDragStart}
            title="Drag to move (or use Move up / Move down)"
            aria-hidden="true"
          >
            <GripIcon />
          </span>
        )}
        <CardTitle id={headingId} widget={widget} index={index} count={count} region={region} />
        {widget.shared && (
          <span className="badge badge--accent widget-card__shared">
            <LinkIcon aria-hidden="true" />{' '}
            {widget.share === 'create'
              ? 'Will be shared on save'
              : widget.share === 'link'
                ? 'Will link on save'
                : 'Shared'}
          </span>
        )}
        {!isReadOnly && (
          <div className="widget-card__tools" role="group" aria-label={`Move ${label} widget`}>
            <Button
              size="sm"
              variant="quiet"
              iconOnly
              aria-label="Move up"
              data-action="move-up"
              isDisabled={index === 0}
              onPress={() => actions.move(widget.key, -1)}
            >
              <ArrowUpIcon />
            </Button>
            <Button
              size="sm"
              variant="quiet"
              iconOnly
              aria-label="Move down"
              data-action="move-down"
              isDisabled={index === count - 1}
              onPress={() => actions.move(widget.key, 1)}
            >
              <ArrowDownIcon />
            </Button>
            <CardMenu widget={widget} otherRegions={otherRegions} actions={actions} />
          </div>
        )}
      </header>
      <CardBody
        widget={widget}
        isReadOnly={isReadOnly}
        actions={actions}
        controllers={controllers}
        assetHref={assetHref}
        pagePath={pagePath}
      />
    </article>
  );
}

/**
 * A card's "More actions" menu: the same for any position in the region, so adding, removing or moving a widget
 * (which changes every card's position and count) does not draw the menus of the other cards again.
 */
const CardMenu = memo(function CardMenu({
  widget,
  otherRegions,
  actions,
}: {
  widget: EditorWidget;
  otherRegions: readonly string[];
  actions: WidgetActions;
}) {
  const label = widgetLabel(widget.type);
  const linked = widget.shared !== undefined && widget.share !== 'create';
  const binary = isBinaryWidget(widget.type);
  const menuAction = (key: Key) => {
    const id = String(key);
    if (id.startsWith('move-to:')) actions.moveTo(widget.key, id.slice('move-to:'.length));
    else if (id === 'duplicate') actions.duplicate(widget.key);
    else if (id === 'share') actions.makeShared(widget.key);
    else if (id === 'link') actions.linkShared(widget.key);
    else if (id === 'detach') actions.detach(widget.key);
    else if (id === 'remove') actions.remove(widget.key);
  };
  return (
    <MenuTrigger>
      <AriaButton className="btn btn--quiet btn--sm btn--icon" aria-label={`More actions for this ${label} widget`}>
        <MoreIcon />
      </AriaButton>
      <Popover className="popover" placement="bottom end" offset={4}>
        <Menu className="menu" aria-label={`Actions for this ${label} widget`} onAction={menuAction}>
          {otherRegions.map((r) => (
            <MenuItem key={`move-to:${r}`} id={`move-to:${r}`} className="menu__item">
              {`Move to region “${r}”`}
            </MenuItem>
          ))}
          {otherRegions.length > 0 && <Separator className="menu__separator" />}
          <MenuItem id="duplicate" className="menu__item">
            Duplicate
          </MenuItem>
          {canShare(widget.type) && !widget.shared && (
            <MenuItem id="share" className="menu__item">
              Make shared…
            </MenuItem>
          )}
          {canShare(widget.type) && (
            <MenuItem id="link" className="menu__item">
              Link shared asset…
            </MenuItem>
          )}
          {linked && !binary && (
            <MenuItem id="detach" className="menu__item">
              Detach (make a local copy)
            </MenuItem>
          )}
          <Separator className="menu__separator" />
          <MenuItem id="remove" className="menu__item menu__item--danger">
            Remove
          </MenuItem>
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}, sameCard);

/** A card's content (its form, or its library asset's view): the same for any position in the region. */
const CardBody = memo(function CardBody({
  widget,
  isReadOnly,
  actions,
  controllers,
  assetHref,
  pagePath,
}: AssetViewProps & { controllers: Map<string, FieldsFormController> }) {
  const linked = widget.shared !== undefined && widget.share !== 'create';
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
