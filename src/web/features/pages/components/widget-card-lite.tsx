import { flushSync } from 'react-dom';
import { createContext, memo, useContext, useId, type FocusEvent } from 'react';
import { widgetContentFields } from '../../../../shared/registry';
import { ArrowDownIcon, ArrowUpIcon, GripIcon, MoreIcon } from '../../../components/ui/icons';
import type { Activation } from '../../../kit/controls/rich-text/activation';
import { RichTextPreview } from '../../../kit/controls/rich-text/rich-text-deferred';
import { WidgetTypeIcon } from '../../../kit/type-icon';
import { isBinaryWidget, widgetLabel, type EditorWidget } from '../lib/editor-doc';

/**
 * Where a person went in a lite card, to be taken to the same place in the whole card once it is drawn: the card
 * itself, one of its header buttons (by position), or a rich text field (focused: caret at the start; pressed:
 * at that point of the text).
 */
export type Handoff =
  | { to: 'card' }
  | { to: 'button'; index: number }
  | { to: 'field'; field: string; activation: Exclude<Activation, 'none'> };

/**
 * Whether a widget may first show as a lite card: a local, unshared widget (its content is in the doc) whose fields are
 * all rich text the static view shows as the whole card would (not empty, and — once the editor's code has loaded,
 * `keeps` — HTML the visual editor keeps; other HTML opens in the HTML view). Other fields, shared and binary
 * widgets are drawn whole from the start.
 */
export function canStartLite(widget: EditorWidget, keeps: ((html: string) => boolean) | null): boolean {
  if (isBinaryWidget(widget.type) || widget.shared !== undefined) return false;
  return widgetContentFields(widget.type).every((def) => {
    const value = widget.fields[def.key];
    return def.editor === 'html' && typeof value === 'string' && value !== '' && (keeps?.(value) ?? true);
  });
}

/** Takes the person to the place `handoff` names in the whole card `card`. */
export function applyHandoff(card: HTMLElement, handoff: Handoff) {
  if (handoff.to === 'button') {
    const button = card.querySelectorAll<HTMLButtonElement>('.widget-card__tools button')[handoff.index];
    return (button && !button.disabled ? button : card).focus();
  }
  if (handoff.to === 'card') return card.focus();
  const field = card.querySelector<HTMLElement>(`[data-field="${CSS.escape(handoff.field)}"]`);
  const box = field?.querySelector<HTMLElement>('[data-rich-text-static]');
  if (!box) return (field?.querySelector<HTMLElement>('[contenteditable="true"]') ?? card).focus();
  // The static view becomes the editor on focus (caret at the start) or on a press (caret at that point).
  if (handoff.activation === 'start') return box.focus();
  const rect = box.getBoundingClientRect();
  box.dispatchEvent(
    new MouseEvent('mousedown', {
      bubbles: true,
      cancelable: true,
      button: 0,
      clientX: rect.left + handoff.activation.x,
      clientY: rect.top + handoff.activation.y - box.scrollTop,
    }),
  );
}

/**
 * How many widgets the card's region holds, for its title ("3 of 50"): read by the titles alone, so adding or
 * removing a widget draws every title again but no other part of the cards.
 */
export const RegionCount = createContext(0);

/** A card's type icon and heading ("Rich text", and for screen readers "widget, 3 of 50 in main"). */
export function CardTitle({
  id,
  widget,
  index,
  region,
}: {
  id: string;
  widget: EditorWidget;
  index: number;
  region: string;
}) {
  const count = useContext(RegionCount);
  return (
    <>
      <WidgetTypeIcon type={widget.type} className="widget-card__icon" />
      <h3 id={id} className="widget-card__title">
        {widgetLabel(widget.type)}
        <span className="visually-hidden">
          {' '}
          widget, {index + 1} of {count} in {region}
        </span>
      </h3>
    </>
  );
}

/**
 * A widget card as it looks, without its form: the header (its buttons focusable, in the same order) and each
 * rich text field's static view, the very one the whole card shows until the field is used. A long page opens with
 * these; the editor draws them whole a few at a time while the browser is idle (regions-view.tsx), at once when the
 * pointer comes over one, and when focus or a press goes into one — then to the same place in the whole card.
 */
export const WidgetCardLite = memo(function WidgetCardLite({
  widget,
  region,
  index,
  isLast,
  isReadOnly,
  onWake,
}: {
  widget: EditorWidget;
  region: string;
  index: number;
  /** The region's last widget (its Move down is off). */
  isLast: boolean;
  isReadOnly: boolean;
  /** Draws this card whole, then takes the person to `handoff` in it. */
  onWake: (key: string, handoff?: Handoff) => void;
}) {
  const id = useId();
  const label = widgetLabel(widget.type);
  const key = widget.key;

  const onFocus = (e: FocusEvent<HTMLElement>) => {
    // A field's text box hands its own focus over (RichTextPreview's onActivate).
    if (e.target.closest('[data-field]')) return;
    const buttons = [...e.currentTarget.querySelectorAll('.widget-card__tools button')];
    const index = buttons.indexOf(e.target as HTMLButtonElement);
    onWake(key, index >= 0 ? { to: 'button', index } : { to: 'card' });
  };

  return (
    <article
      className="widget-card"
      aria-labelledby={`${id}-title`}
      data-widget-key={key}
      data-lite=""
      tabIndex={-1}
      // Drawn whole before the press lands: the press, a drag from the grip, a menu all reach the whole card.
      onPointerOver={() => flushSync(() => onWake(key))}
      onFocus={onFocus}
    >
      <header className="widget-card__header">
        {!isReadOnly && (
          <span className="widget-card__grip" aria-hidden="true">
            <GripIcon />
          </span>
        )}
        <CardTitle id={`${id}-title`} widget={widget} index={index} region={region} />
        {!isReadOnly && (
          <div className="widget-card__tools" role="group" aria-label={`Move ${label} widget`}>
            <button
              type="button"
              className="btn btn--quiet btn--sm btn--icon"
              aria-label="Move up"
              data-action="move-up"
              disabled={index === 0}
            >
              <span className="btn__label">
                <ArrowUpIcon />
              </span>
            </button>
            <button
              type="button"
              className="btn btn--quiet btn--sm btn--icon"
              aria-label="Move down"
              data-action="move-down"
              disabled={isLast}
            >
              <span className="btn__label">
                <ArrowDownIcon />
              </span>
            </button>
            <button
              type="button"
              className="btn btn--quiet btn--sm btn--icon"
              aria-label={`More actions for this ${label} widget`}
            >
              <MoreIcon />
            </button>
          </div>
        )}
      </header>
      <div className="widget-card__body">
        <div className="fields-form">
          {widgetContentFields(widget.type).map((def) => (
            <div key={def.key} className="fields-form__field" data-field={def.key} data-editor={def.editor}>
              <RichTextPreview
                // As the whole card's form has it: a page's own content may leave any field empty.
                def={{ ...def, required: false }}
                value={widget.fields[def.key] ?? ''}
                isReadOnly={isReadOnly}
                onActivate={(activation) =>
                  onWake(key, { to: 'field', field: def.key, activation: activation === 'none' ? 'start' : activation })
                }
              />
            </div>
          ))}
        </div>
      </div>
    </article>
  );
});
