import { useId } from 'react';
import type { FormEntry } from './form-builder-data';
import { EmptyList } from './structured-parts';

/** What an entry of a type the builder cannot edit is called on its card. */
export function otherTitle(source: unknown): { title: string; type: string } {
  const obj =
    typeof source === 'object' && source !== null && !Array.isArray(source) ? (source as Record<string, unknown>) : {};
  const title =
    typeof obj.label === 'string' && obj.label
      ? obj.label
      : typeof obj.name === 'string' && obj.name
        ? obj.name
        : 'Field';
  const type = typeof obj.type === 'string' ? `type “${obj.type}”` : 'unknown type';
  return { title, type };
}

/** The form as visitors will see it, to try out (nothing is sent). */
export function FormPreview({ entries }: { entries: readonly FormEntry[] }) {
  const uid = useId();
  if (entries.length === 0) return <EmptyList>The form has no fields yet.</EmptyList>;
  return (
    <div className="form-preview">
      <p className="form-preview__note">How visitors will see the form. Try it: nothing is sent.</p>
      {entries.map((entry) => {
        const key = `${uid}-${entry.id}`;
        if (entry.kind === 'other')
          return (
            <p key={entry.id} className="form-preview__other">
              {otherTitle(entry.source).title}: a field of {otherTitle(entry.source).type}, shown on the site only.
            </p>
          );
        const f = entry.field;
        const label = (
          <>
            {f.label.trim() || 'Untitled field'}
            {f.required && (
              <span className="field__required" aria-hidden="true">
                {' '}
                *
              </span>
            )}
          </>
        );
        switch (f.type) {
          case 'checkbox':
            return (
              <label key={entry.id} className="form-preview__check">
                <input type="checkbox" required={f.required} /> {label}
              </label>
            );
          case 'radio':
            return (
              <fieldset key={entry.id} className="form-preview__group">
                <legend className="field__label">{label}</legend>
                {f.options.map((o) => (
                  <label key={o.id} className="form-preview__check">
                    <input type="radio" name={key} required={f.required} /> {o.text || '(empty option)'}
                  </label>
                ))}
              </fieldset>
            );
          case 'select':
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <select id={key} className="field__input" required={f.required} defaultValue="">
                  <option value="" disabled>
                    Choose…
                  </option>
                  {f.options.map((o) => (
                    <option key={o.id}>{o.text || '(empty option)'}</option>
                  ))}
                </select>
              </div>
            );
          case 'textarea':
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <textarea id={key} className="field__input field__textarea" required={f.required} rows={3} />
              </div>
            );
          default:
            return (
              <div key={entry.id} className="field">
                <label htmlFor={key} className="field__label">
                  {label}
                </label>
                <input id={key} type={f.type} className="field__input" required={f.required} />
              </div>
            );
        }
      })}
    </div>
  );
}
