import { lazy, Suspense, type ReactNode } from 'react';
import { FieldShell } from '../components/ui/field-shell';
import { Spinner } from '../components/ui/spinner';
import type { FieldControlProps } from './field-control';
import { DateControl, DateTimeControl } from './controls/date-controls';
import { AssetPathControl, SitePathControl } from './controls/path-controls';
import { CodeControl } from './controls/code/code-control';
import { HtmlControl } from './controls/rich-text/rich-text-deferred';
import { TemplateListControl } from './controls/template-list-control';
import {
  BooleanControl,
  NumberControl,
  OptionsControl,
  TextareaControl,
  TextControl,
  UrlControl,
} from './controls/text-controls';

// The rich text (tiptap) and code (CodeMirror) editors load with the first form that needs them (their
// controls load them themselves).
const JsonStructuredControl = lazy(() => import('./controls/json-structured-control'));

/** While a heavy control loads: its label and a line saying so, in the place it will take. */
function Loading({ props, children }: { props: FieldControlProps; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <FieldShell label={props.def.label} description={props.def.help}>
          {() => (
            <p className="field-loading" role="status">
              <Spinner /> Loading the editor…
            </p>
          )}
        </FieldShell>
      }
    >
      {children}
    </Suspense>
  );
}

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
    case 'html':
      return <HtmlControl {...props} loading={(control) => <Loading props={props}>{control}</Loading>} />;
    case 'code':
      return <CodeControl {...props} />;
    case 'json-structured':
      return (
        <Loading props={props}>
          <JsonStructuredControl {...props} />
        </Loading>
      );
    case 'asset-path':
      return <AssetPathControl {...props} />;
    case 'site-path':
      return <SitePathControl {...props} />;
    case 'template-list':
      return <TemplateListControl {...props} />;
    case 'date':
      return <DateControl {...props} />;
    case 'datetime':
      return <DateTimeControl {...props} />;
  }
}
