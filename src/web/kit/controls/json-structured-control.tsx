import type { ComponentType } from 'react';
import { FieldShell } from '../../components/ui/field-shell';
import { InlineAlert } from '../../components/ui/inline-alert';
import type { JsonStructure } from '../../../shared/registry';
import type { FieldControlProps } from '../field-control';
import { FormBuilder } from './form-builder';
import { PollEditor } from './poll-editor';
import { SettingsEditor } from './settings-editor';

/** The builder of each `structure` of a `json-structured` field. */
export const STRUCTURED_CONTROLS: Record<JsonStructure, ComponentType<FieldControlProps>> = {
  form: FormBuilder,
  poll: PollEditor,
  settings: SettingsEditor,
};

/**
 * The kit's control for `editor: 'json-structured'`: the builder `def.structure` names. A field without one
 * (a registry entry missing its structure) is shown, not edited.
 */
export function JsonStructuredControl(props: FieldControlProps) {
  const Builder = props.def.structure ? STRUCTURED_CONTROLS[props.def.structure] : undefined;
  if (Builder) return <Builder {...props} />;
  return (
    <FieldShell label={props.def.label} errorMessage={props.errorMessage}>
      {() => (
        <InlineAlert tone="info" title="No editor for this field">
          <p>The registry does not say which builder edits it; its value is kept as it is.</p>
          {props.value && <pre className="stored-problem__value">{props.value}</pre>}
        </InlineAlert>
      )}
    </FieldShell>
  );
}

export default JsonStructuredControl;
