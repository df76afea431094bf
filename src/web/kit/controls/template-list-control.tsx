import { TokenField } from '../../components/ui/token-field';
import { useTemplates } from '../../lib/queries/templates';
import type { FieldControlProps } from '../field-control';

/** The names of a template list (stored comma-separated, "blog-post,news"). */
export function splitTemplateList(value: string | null): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * `template-list`: templates as tokens, suggested from the templates there are; a name that is no template is kept
 * (nothing stored is lost) and named in a warning.
 */
export function TemplateListControl(props: FieldControlProps) {
  const { def, value, onChange, errorMessage, isReadOnly, focusRef } = props;
  const templates = useTemplates();
  const names = splitTemplateList(value);
  const known = new Set((templates.data ?? []).map((t) => t.name));
  const unknown = templates.data ? names.filter((n) => !known.has(n)) : [];
  const warning = unknown.length
    ? `${unknown.map((n) => `“${n}”`).join(', ')} ${unknown.length === 1 ? 'is not a template' : 'are not templates'} (any more).`
    : undefined;
  return (
    <TokenField
      label={def.label}
      value={names}
      onChange={(next) => onChange(next.length ? next.join(',') : null)}
      suggestions={(templates.data ?? []).map((t) => t.name)}
      description={[warning, def.help].filter(Boolean).join(' ') || undefined}
      errorMessage={errorMessage}
      isReadOnly={isReadOnly}
      isRequired={def.required}
      placeholder="Type a template’s name"
      validate={(t) => (t.includes(',') ? 'A template’s name has no comma.' : null)}
      inputRef={(el) => focusRef?.(el)}
    />
  );
}
