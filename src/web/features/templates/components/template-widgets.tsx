import { useEffect, useId, useMemo } from 'react';
import {
  Button as AriaButton,
  Header,
  Menu,
  MenuItem,
  MenuSection,
  MenuTrigger,
  Popover,
  type Key,
} from 'react-aria-components';
import {
  assetTypeDef,
  WIDGET_CATEGORY_LABEL,
  WIDGET_TYPES,
  widgetContentFields,
  widgetTypeDef,
  type WidgetCategory,
  type WidgetType,
} from '../../../../shared/registry';
import { PlusIcon } from '../../../components/ui/icons';
import { ItemActions, movedFocusKeys, movedSentence } from '../../../kit/controls/reorder';
import type { useFocusTargets } from '../../../kit/controls/structured-parts';
import { moveItem } from '../../../kit/controls/structured-values';
import { FieldsForm, useFieldsForm, type FieldsFormController } from '../../../kit/fields-form';
import { WidgetTypeIcon } from '../../../kit/type-icon';
import { newWidgetKey, type WidgetValues } from './template-values';

/**
 * The widget types a template can hold, by category: all but those showing a file of the asset library (an image,
 * a file), which a template cannot link.
 */
const TEMPLATE_WIDGET_GROUPS = (Object.keys(WIDGET_CATEGORY_LABEL) as WidgetCategory[])
  .map((category) => ({
    category,
    types: WIDGET_TYPES.filter((w) => w.category === category).filter(
      (w) => !(w.assetType && assetTypeDef(w.assetType)?.binary),
    ),
  }))
  .filter((g) => g.types.length > 0);

const labelOf = (type: string) => widgetTypeDef(type)?.label ?? type;

/** Focus targets of a template widget: its card, and its Move/Remove buttons (`reorder.tsx`). */
export const widgetCardTarget = (key: string) => `${key}:card`;

/**
 * The widgets a fixed region shows on every page made from the template: each edited with the kit's form of its
 * type (the page editor's), moved up or down, removed; "Add widget" offers the types by category.
 */
export function TemplateWidgets({
  rowId,
  region,
  widgets,
  onChange,
  controllers,
  register,
  focusLater,
  announce,
}: {
  /** The region row's key, for the focus target of its "Add widget" button. */
  rowId: string;
  region: string;
  widgets: readonly WidgetValues[];
  onChange: (next: WidgetValues[]) => void;
  /** Each widget's form by its key, for the editor's save (check every field first, place the server's errors). */
  controllers: Map<string, FieldsFormController>;
  register: ReturnType<typeof useFocusTargets>['register'];
  focusLater: (...keys: string[]) => void;
  announce: (text: string) => void;
}) {
  const headingId = useId();
  const add = (key: Key) => {
    const widget: WidgetValues = { key: newWidgetKey(), type: String(key) as WidgetType, fields: {} };
    onChange([...widgets, widget]);
    focusLater(widgetCardTarget(widget.key));
    announce(`Added a ${labelOf(widget.type)} widget to “${region}”.`);
  };
  return (
    <div className="template-widgets">
      <h3 id={headingId} className="template-widgets__title">
        Widgets on every page{' '}
        <span className="template-widgets__count">
          {widgets.length} {widgets.length === 1 ? 'widget' : 'widgets'}
        </span>
      </h3>
      {widgets.length === 0 && <p className="card__muted">Nothing yet: pages show this region empty.</p>}
      <ol className="card-list" aria-labelledby={headingId}>
        {widgets.map((w, i) => (
          <TemplateWidgetCard
            key={w.key}
            widget={w}
            region={region}
            index={i}
            count={widgets.length}
            controllers={controllers}
            register={register}
            onFields={(fields) => onChange(widgets.map((x) => (x.key === w.key ? { ...x, fields } : x)))}
            onMove={(delta) => {
              onChange(moveItem(widgets, i, i + delta));
              focusLater(...movedFocusKeys(w.key, delta));
              announce(movedSentence(`The ${labelOf(w.type)} widget`, i + delta + 1, widgets.length));
            }}
            onRemove={() => {
              const after = widgets[i + 1] ?? widgets[i - 1];
              onChange(widgets.filter((x) => x.key !== w.key));
              focusLater(...(after ? [`${after.key}:remove`] : []), `${rowId}:add-widget`);
              announce(`Removed the ${labelOf(w.type)} widget from “${region}”.`);
            }}
          />
        ))}
      </ol>
      <MenuTrigger>
        <AriaButton className="btn btn--secondary btn--sm" ref={register(`${rowId}:add-widget`)}>
          <PlusIcon /> Add widget to {region || 'this region'}
        </AriaButton>
        <Popover className="popover template-widgets__menu" placement="bottom start" offset={4}>
          <Menu className="menu" aria-label={`Widget types for “${region}”`} onAction={add}>
            {TEMPLATE_WIDGET_GROUPS.map((g) => (
              <MenuSection key={g.category} id={g.category}>
                <Header className="template-widgets__group">{WIDGET_CATEGORY_LABEL[g.category]}</Header>
                {g.types.map((t) => (
                  <MenuItem key={t.type} id={t.type} className="menu__item" textValue={t.label}>
                    <WidgetTypeIcon type={t.type} className="template-widgets__icon" />
                    <span className="listbox__text">
                      <span>{t.label}</span>
                      <span className="listbox__description">{t.description}</span>
                    </span>
                  </MenuItem>
                ))}
              </MenuSection>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
    </div>
  );
}

/** One template widget: its type, Move up/down and Remove, and the kit's form of its content. */
function TemplateWidgetCard({
  widget,
  region,
  index,
  count,
  controllers,
  register,
  onFields,
  onMove,
  onRemove,
}: {
  widget: WidgetValues;
  region: string;
  index: number;
  count: number;
  controllers: Map<string, FieldsFormController>;
  register: ReturnType<typeof useFocusTargets>['register'];
  onFields: (fields: WidgetValues['fields']) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}) {
  const headingId = useId();
  const label = labelOf(widget.type);
  // A template's widget may leave any field empty, as a page's own may.
  const defs = useMemo(() => widgetContentFields(widget.type).map((d) => ({ ...d, required: false })), [widget.type]);
  const controller = useFieldsForm({ defs, initial: widget.fields });
  useEffect(() => {
    controllers.set(widget.key, controller);
    return () => {
      controllers.delete(widget.key);
    };
  }, [controllers, widget.key, controller]);
  return (
    <li className="template-widget-card" aria-labelledby={headingId}>
      <div className="template-widget-card__header">
        <WidgetTypeIcon type={widget.type} className="template-widgets__icon" />
        <h4
          id={headingId}
          className="template-widget-card__title"
          tabIndex={-1}
          ref={register(widgetCardTarget(widget.key))}
        >
          {label}
          <span className="visually-hidden">
            {' '}
            widget, {index + 1} of {count} in {region}
          </span>
        </h4>
        <ItemActions
          id={widget.key}
          itemName={`${label} widget ${index + 1}`}
          index={index}
          count={count}
          onMove={onMove}
          onRemove={onRemove}
          register={register}
        />
      </div>
      {defs.length === 0 ? (
        <p className="card__muted">This widget has no settings.</p>
      ) : (
        <FieldsForm
          controller={controller}
          onValuesChange={() => onFields({ ...widget.fields, ...controller.form.getValues() })}
        />
      )}
    </li>
  );
}
