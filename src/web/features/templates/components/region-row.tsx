import type { HTMLAttributes, KeyboardEvent } from 'react';
import { Controller, type UseFormReturn } from 'react-hook-form';
import { RegionName } from '../../../../shared/api/templates';
import { widgetTypeDef } from '../../../../shared/registry';
import { FormTextField } from '../../../components/ui/controlled-fields';
import { Switch } from '../../../components/ui/switch';
import { IDENTIFIER_INPUT } from '../../../components/ui/text-field';
import { DragGrip, ItemActions } from '../../../kit/controls/reorder';
import type { useFocusTargets } from '../../../kit/controls/structured-parts';
import type { FieldsFormController } from '../../../kit/fields-form';
import { validateWith } from '../../../lib/validation';
import type { Values, WidgetValues } from './template-values';
import { TemplateWidgets } from './template-widgets';

const typeList = (widgets: readonly WidgetValues[]) =>
  widgets.map((w) => widgetTypeDef(w.type)?.label ?? w.type).join(', ');

/**
 * One region: its name, whether pages fill it, move up/down (buttons, Alt+↑/↓ inside the row, or the drag grip)
 * and remove; a fixed region also holds the template's widgets.
 */
export function RegionRow({
  form,
  id,
  index,
  count,
  onMove,
  onRemove,
  register,
  focusLater,
  announce,
  controllers,
  dragProps,
  gripProps,
}: {
  form: UseFormReturn<Values>;
  /** The row's key (kept while the region moves), for its focus targets. */
  id: string;
  index: number;
  count: number;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
  register: ReturnType<typeof useFocusTargets>['register'];
  focusLater: (...keys: string[]) => void;
  announce: (text: string) => void;
  controllers: Map<string, FieldsFormController>;
  /** The row as a drop target while a region is dragged, and its class names then. */
  dragProps: HTMLAttributes<HTMLLIElement>;
  gripProps: Record<string, unknown>;
}) {
  const name = form.watch(`regions.${index}.name`);
  const previousName = form.watch(`regions.${index}.previousName`);
  const editable = form.watch(`regions.${index}.editable`);
  const widgets = form.watch(`regions.${index}.widgets`);
  const label = name || `region ${index + 1}`;
  const dropsWidgets = editable && widgets.length > 0;

  // Alt+↑ / Alt+↓ anywhere in the row but its widgets' forms (where they belong to the text being edited).
  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    if ((event.target as HTMLElement).closest('.template-widgets')) return;
    const delta = event.key === 'ArrowUp' ? -1 : 1;
    if (index + delta < 0 || index + delta >= count) return;
    event.preventDefault();
    const focused = document.activeElement as HTMLElement | null;
    onMove(delta);
    // The row's elements move with it; the browser drops the focus when it moves them.
    requestAnimationFrame(() => focused?.focus());
  };

  return (
    <li {...dragProps} className={`region-row ${dragProps.className ?? ''}`} onKeyDown={onKeyDown}>
      <div className="region-row__position">
        <DragGrip {...gripProps} />
        <span aria-hidden="true">{index + 1}</span>
      </div>
      <div className="region-row__name">
        <FormTextField
          control={form.control}
          name={`regions.${index}.name`}
          label={`Name of region ${index + 1}`}
          isRequired
          {...IDENTIFIER_INPUT}
          maxLength={64}
          autoFocus={previousName === null && name === ''}
          description={
            previousName !== null && previousName !== name && name
              ? `Renamed from “${previousName}”: pages keep what they hold in it.`
              : undefined
          }
          rules={{
            validate: (v) => {
              if (!v) return 'Enter the region’s name.';
              const problem = validateWith(RegionName, 'The region name')(v);
              if (problem) return problem;
              const all = form.getValues('regions');
              return all.filter((r) => r.name === v).length > 1 ? `Another region is called “${v}”.` : true;
            },
          }}
        />
      </div>
      <div className="region-row__kind">
        <Controller
          control={form.control}
          name={`regions.${index}.editable`}
          render={({ field }) => (
            <Switch isSelected={field.value} onChange={field.onChange}>
              Filled by pages
            </Switch>
          )}
        />
        <p className="field__description">
          {dropsWidgets
            ? `Its ${widgets.length === 1 ? 'template widget' : `${widgets.length} template widgets`} (${typeList(
                widgets,
              )}) will be removed when you save.`
            : editable
              ? 'Each page puts its own widgets here.'
              : 'Fixed: the template’s widgets below, on every page.'}
        </p>
      </div>
      <div className="region-row__actions">
        <ItemActions
          id={id}
          itemName={`region “${label}”`}
          index={index}
          count={count}
          onMove={onMove}
          onRemove={onRemove}
          register={register}
        />
      </div>
      {!editable && (
        <div className="region-row__widgets">
          <TemplateWidgets
            rowId={id}
            region={label}
            widgets={widgets}
            onChange={(next) => form.setValue(`regions.${index}.widgets`, next, { shouldDirty: true })}
            controllers={controllers}
            register={register}
            focusLater={focusLater}
            announce={announce}
          />
        </div>
      )}
    </li>
  );
}
