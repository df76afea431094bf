import {
  lazy,
  Suspense,
  useContext,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactNode,
  type Ref,
} from 'react';
import { pressPoint } from '../press-point';
import { FieldShell } from '../../../components/ui/field-shell';
import { HtmlPreview } from '../../../components/ui/html-preview';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { DeferRichText } from '../../defer-rich-text';
import type { FieldControlProps } from '../../field-control';
import type { CodeActivation, CodeEditorHandle, CodeEditorProps } from './code-editor';
import './code-static.css';

// CodeMirror loads with the first code field drawn as an editor (or when the pointer comes over a static one).
let loaded: typeof import('./code-editor') | null = null;
const loadEditor = () =>
  import('./code-editor').then((m) => {
    loaded = m;
    return m;
  });
const LazyCodeEditor = lazy(() => loadEditor().then((m) => ({ default: m.CodeEditor })));

/** CodeMirror, at once when its code is in (keys typed right after a click reach it), else lazily. */
function Editor({ fallback, ref, ...props }: CodeEditorProps & { fallback: ReactNode; ref: Ref<CodeEditorHandle> }) {
  // Chosen once: going from the lazy path to the loaded one would remount CodeMirror (its focus, undo lost).
  const [now] = useState(() => loaded);
  if (now) return <now.CodeEditor ref={ref} {...props} />;
  return (
    <Suspense fallback={fallback}>
      <LazyCodeEditor ref={ref} {...props} />
    </Suspense>
  );
}

/**
 * `code`: HTML written by hand (raw HTML widget, rendered forms) with highlighting and a preview that renders
 * it sanitised in a sandboxed frame; a query (auto lists) with line numbers. CodeMirror loads on first use.
 * Inside `DeferRichText` (the page editor) a field with a value starts as its text in a static box that becomes
 * the editor on the first press (caret at that point) or focus (caret at the start): a page opens without
 * CodeMirror, as it does without tiptap.
 */
export function CodeControl(props: FieldControlProps) {
  const { def, value, onChange, onBlur, errorMessage, isReadOnly, focusRef } = props;
  const isHtml = def.format === 'html';
  const defer = useContext(DeferRichText);
  const editor = useRef<CodeEditorHandle>(null);
  const [tab, setTab] = useState<'code' | 'preview'>('code');
  // The preview's frame is made when its tab is first shown, then kept (as the editor is).
  const [previewShown, setPreviewShown] = useState(false);
  const [activation, setActivation] = useState<CodeActivation | 'none' | null>(() =>
    !defer || isReadOnly || !value ? 'none' : null,
  );
  const activate = (a: CodeActivation) => setActivation((now) => now ?? a);

  useEffect(() => {
    if (activation) return;
    focusRef?.({ focus: () => activate('start') });
    return () => focusRef?.(null);
  }, [activation, focusRef]);

  return (
    <FieldShell label={def.label} description={def.help} errorMessage={errorMessage} isRequired={def.required}>
      {({ labelId, describedBy, isInvalid }) => {
        const box = (
          <CodeStatic
            value={value ?? ''}
            labelledBy={labelId}
            describedBy={describedBy}
            isInvalid={isInvalid}
            onActivate={activate}
          />
        );
        const code = !activation ? (
          box
        ) : (
          <Editor
            ref={(handle) => {
              editor.current = handle;
              focusRef?.(handle);
            }}
            value={value ?? ''}
            onChange={(next) => onChange(next)}
            onBlur={onBlur}
            language={isHtml ? 'html' : 'sql'}
            labelledBy={labelId}
            describedBy={describedBy}
            isReadOnly={isReadOnly}
            isInvalid={isInvalid}
            activation={activation === 'none' ? undefined : activation}
            fallback={
              activation === 'none' ? (
                <p className="field-loading" role="status">
                  <Spinner /> Loading the editor…
                </p>
              ) : (
                box
              )
            }
          />
        );
        if (!isHtml) return code;
        return (
          <Tabs
            label={`${def.label}: code or preview`}
            selected={tab}
            onSelectedChange={(next) => {
              setTab(next);
              if (next === 'preview') setPreviewShown(true);
            }}
            keepMounted
            tabs={[
              { id: 'code', label: 'HTML', content: code },
              {
                id: 'preview',
                label: 'Preview',
                tabStop: !value?.trim(),
                content: !value?.trim() ? (
                  <p className="field__description">Nothing to preview yet: the HTML is empty.</p>
                ) : previewShown || tab === 'preview' ? (
                  <HtmlPreview
                    html={value}
                    title={`Preview of ${def.label.toLowerCase()} (sanitised, scripts do not run)`}
                  />
                ) : null,
              },
            ]}
          />
        );
      }}
    </FieldShell>
  );
}

/**
 * The code as the editor shows it, without the editor: a focusable text box, a line number beside each line,
 * that becomes the editor (`onActivate`: where the person pressed, or 'start' on focus). The pointer coming over
 * it starts loading CodeMirror, so a click usually finds it loaded.
 */
function CodeStatic({
  value,
  labelledBy,
  describedBy,
  isInvalid,
  onActivate,
}: {
  value: string;
  labelledBy: string;
  describedBy?: string;
  isInvalid?: boolean;
  onActivate: (a: CodeActivation) => void;
}) {
  const onMouseDown = (e: MouseEvent<HTMLDivElement>) => {
    const at = pressPoint(e);
    if (at) onActivate(at);
  };
  return (
    <div className="code-static" data-invalid={isInvalid || undefined}>
      <div
        className="code-static__text"
        role="textbox"
        aria-multiline="true"
        aria-labelledby={labelledBy}
        aria-describedby={describedBy}
        aria-invalid={isInvalid || undefined}
        tabIndex={0}
        data-code-static=""
        onPointerOver={() => void loadEditor()}
        onMouseDown={onMouseDown}
        onFocus={(e: FocusEvent<HTMLDivElement>) => e.target === e.currentTarget && onActivate('start')}
      >
        {value.split(/\r\n|\r|\n/).map((line, i) => (
          <div key={i} className="code-static__line">
            {line || '\u200b'}
          </div>
        ))}
      </div>
    </div>
  );
}

export default CodeControl;
