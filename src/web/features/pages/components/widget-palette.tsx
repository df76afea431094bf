import { useId, useMemo, useState } from 'react';
import { WIDGET_TYPES, type WidgetCategory, type WidgetType } from '../../../../shared/registry';
import { Modal } from '../../../components/ui/dialog';
import { Button } from '../../../components/ui/button';
import { SearchField } from '../../../components/ui/search-field';
import { WidgetTypeIcon } from '../../../kit/type-icon';

const CATEGORY_LABEL: Record<WidgetCategory, string> = {
  content: 'Content',
  media: 'Media',
  navigation: 'Navigation',
  list: 'Lists',
  form: 'Forms',
  social: 'Social',
};
const CATEGORIES = Object.keys(CATEGORY_LABEL) as WidgetCategory[];

/**
 * The palette of the 27 widget types, grouped by category, searchable by name and description; each type says
 * in a sentence what it shows. Choosing one adds it to the region.
 */
export function WidgetPalette({
  region,
  onChoose,
  onClose,
}: {
  region: string;
  onChoose: (type: WidgetType) => void;
  onClose: () => void;
}) {
  const [query, setQuery] = useState('');
  const baseId = useId();
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return WIDGET_TYPES.filter(
      (w) =>
        q === '' ||
        w.label.toLowerCase().includes(q) ||
        w.description.toLowerCase().includes(q) ||
        w.type.toLowerCase().includes(q),
    );
  }, [query]);
  return (
    <Modal
      isOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      size="lg"
      title={`Add a widget to “${region}”`}
      footer={
        <Button variant="quiet" onPress={onClose}>
          Cancel
        </Button>
      }
    >
      <SearchField
        label="Find a widget type"
        placeholder="Find a widget: rich text, image, poll…"
        value={query}
        onChange={setQuery}
        autoFocus
      />
      <p className="visually-hidden" role="status">
        {shown.length} {shown.length === 1 ? 'widget type' : 'widget types'}
      </p>
      <div className="palette">
        {shown.length === 0 && <p className="widget-card__muted">No widget type matches “{query}”.</p>}
        {CATEGORIES.map((category, ci) => {
          const types = shown.filter((w) => w.category === category);
          if (types.length === 0) return null;
          return (
            <section key={category} className="palette__group" aria-labelledby={`${baseId}-${ci}`}>
              <h3 id={`${baseId}-${ci}`} className="palette__title">
                {CATEGORY_LABEL[category]}
              </h3>
              <ul className="palette__list">
                {types.map((w) => (
                  <li key={w.type}>
                    <button
                      type="button"
                      className="palette__item"
                      onClick={() => onChoose(w.type)}
                      aria-labelledby={`${baseId}-${w.type}`}
                      aria-describedby={`${baseId}-${w.type}-d`}
                    >
                      <WidgetTypeIcon type={w.type} className="palette__icon" />
                      <span className="palette__text">
                        <span id={`${baseId}-${w.type}`} className="palette__label">
                          {w.label}
                        </span>
                        <span id={`${baseId}-${w.type}-d`} className="palette__description">
                          {w.description}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </Modal>
  );
}
