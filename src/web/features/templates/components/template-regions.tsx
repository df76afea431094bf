import { useId } from 'react';
import { useFieldArray, type UseFormReturn } from 'react-hook-form';
import { MAX_TEMPLATE_REGIONS } from '../../../../shared/api/templates';
import { movedFocusKeys, movedSentence, useDragReorder } from '../../../kit/controls/reorder';
import { useAnnouncer, useFocusTargets } from '../../../kit/controls/structured-parts';
import type { FieldsFormController } from '../../../kit/fields-form';
import { AddRegion } from './add-region';
import { RegionRow } from './region-row';
import { defaultInsertIndex, newRegion, type Values } from './template-values';

/**
 * The template's regions in page order: each named, filled by pages or fixed (with the template's widgets),
 * moved (buttons, Alt+↑/↓, drag), removed; "Add region" puts a new one where the person says (before the footer
 * unless told otherwise).
 */
export function TemplateRegions({
  form,
  controllers,
}: {
  form: UseFormReturn<Values>;
  /** The forms of the fixed regions' widgets, by widget key. */
  controllers: Map<string, FieldsFormController>;
}) {
  const regions = useFieldArray({ control: form.control, name: 'regions' });
  const headingId = useId();
  // After a move the focus stays on the moved region's button; after a removal it goes to the next region.
  const focus = useFocusTargets();
  const { announce, region: announcements } = useAnnouncer();
  const count = regions.fields.length;
  const nameAt = (index: number) => form.getValues(`regions.${index}.name`) || `region ${index + 1}`;
  const drag = useDragReorder((from, to) => {
    regions.move(from, to);
    announce(movedSentence(`“${nameAt(from)}”`, to + 1, count));
  });
  const watched = form.watch('regions');

  return (
    <section className="card template-editor__card" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        Regions
      </h2>
      <p className="card__muted">
        In page order. Pages put their own widgets in the regions they fill; fixed regions show the template’s widgets
        on every page. Move a region with its arrows, Alt+↑ and Alt+↓, or by its grip.
      </p>
      <ol className="region-rows">
        {regions.fields.map((field, index) => (
          <RegionRow
            key={field.id}
            id={field.id}
            form={form}
            index={index}
            count={count}
            register={focus.register}
            focusLater={focus.focusLater}
            announce={announce}
            controllers={controllers}
            dragProps={{ ...drag.targetProps(index), className: drag.itemClass(index) }}
            gripProps={drag.gripProps(index)}
            onMove={(delta) => {
              const label = nameAt(index);
              regions.move(index, index + delta);
              focus.focusLater(...movedFocusKeys(field.id, delta));
              announce(movedSentence(`“${label}”`, index + delta + 1, count));
            }}
            onRemove={() => {
              if (count === 1) {
                form.setError('regions', { type: 'min', message: 'A template needs at least one region.' });
                return;
              }
              const next = regions.fields[index + 1] ?? regions.fields[index - 1];
              announce(`Removed “${nameAt(index)}”.`);
              regions.remove(index);
              if (next) focus.focusLater(`${next.id}:remove`);
            }}
          />
        ))}
      </ol>
      {announcements}
      {form.formState.errors.regions?.message && (
        <p className="field__error" role="alert">
          {form.formState.errors.regions.message}
        </p>
      )}
      <AddRegion
        names={watched.map((r) => r.name)}
        defaultIndex={defaultInsertIndex(watched)}
        isDisabled={count >= MAX_TEMPLATE_REGIONS}
        onAdd={(index) => {
          form.clearErrors('regions');
          regions.insert(index, newRegion());
          announce(`Added a region at position ${index + 1}. Name it.`);
        }}
      />
    </section>
  );
}
