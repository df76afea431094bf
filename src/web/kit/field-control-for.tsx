import type { FieldControlProps } from './field-control';
import {
  BooleanControl,
  NumberControl,
  OptionsControl,
  TextareaControl,
  TextControl,
  UrlControl,
} from './controls/text-controls';

/**
 * The one place an `EditorKind` meets its control: a new kind of field is added here (and in the registry's
 * `EditorKind`), nowhere else. Heavy controls (rich text, code) load on first use.
 */
export function FieldControl(props: FieldControlProps) {
  switch (props.def.editor) {
    case 'text':
      return props.def.options ? <OptionsControl {...props} /> : <TextControl {...props} />;
    case 'textarea':
      return <TextareaControl {...props} />;
    case 'url':
      return <UrlControl {...props} />;
    case 'number-as-string':
      return <NumberControl {...props} />;
    case 'boolean-as-string':
      return <BooleanControl {...props} />;
    // Until the kit's other controls are wired in (rich text, code, dates, builders, pickers).
    case 'html':
    case 'code':
    case 'json-structured':
      return <TextareaControl {...props} />;
    case 'date':
    case 'datetime':
    case 'asset-path':
    case 'site-path':
    case 'template-list':
      return <TextControl {...props} />;
  }
}
