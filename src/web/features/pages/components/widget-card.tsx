import { memo, useId, type DragEvent } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover, Separator, type Key } from 'react-aria-components';
import { Button } from '../../../components/ui/button';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, LinkIcon, MoreIcon } from '../../../components/ui/icons';
import type { FieldsFormController } from '../../../kit/fields-form';
import { canShare, isBinaryWidget, isLinkedWidget, widgetLabel, type EditorWidget } from '../lib/editor-doc';
import { CardBody, sameCard, type WidgetActions } from './widget-card-body';
import { CardTitle } from './widget-card-lite';

/** The MIME type of a widget being dragged inside the editor. */
export const WIDGET_DRAG_TYPE = 'application/x-folio-widget';

/**
 * One widget of an editable region: its type and content in a few words, its form from the kit (rich text edits
 * in place), and its actions — Move up/down (keyboard), a drag handle (pointer), move to another region,
 * duplicate, share, remove. A linked shared asset is read-only here, with "Edit in asset library" and "Detach".
 */
export const WidgetCard = memo(WidgetCardView, sameCard);

interface WidgetCardProps {
  widget: EditorWidget;
  region: string;
  index: number;
  /** The region's last widget (its Move down is off); the title reads the region's count itself. */
  isLast: boolean;
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
  isLast,
  otherRegions,
  pagePath,
  isReadOnly,
  actions,
  controllers,
  assetHref,
}: WidgetCardProps) {
  const headingId = useId();
  const label = widgetLabel(widget.type);
  const linked = isLinkedWidget(widget);

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
        <CardTitle id={headingId} widget={widget} index={index} region={region} />
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
              isDisabled={isLast}
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
  const linked = isLinkedWidget(widget);
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
