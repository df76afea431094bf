import { lazy, Suspense, useContext, useEffect, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { pressPoint } from '../press-point';
import { FieldShell } from '../../../components/ui/field-shell';
import { sanitizeHtml } from '../../../lib/sanitize-html';
import { DeferRichText } from '../../defer-rich-text';
import type { FieldControlProps } from '../../field-control';
import { holdKeys, type Activation } from './activation';
import './rich-text.css';

// tiptap and its schema load with the first rich text field; the static view needs none of it.
let loaded: typeof import('./rich-text-control') | null = null;
const loadEditor = () =>
  import('./rich-text-control').then((m) => {
    loaded = m;
    return m;
  });
const RichTextControl = lazy(loadEditor);

/**
 * Starts loading the editor's code now (the page editor, as its screen's code arrives): the first click into a
 * widget then mounts it at once instead of waiting for the code after the page is drawn.
 */
export function preloadRichTextEditor() {
  void loadEditor().catch(() => undefined);
}

/**
 * Whether the visual editor keeps an HTML text as written (false: the field opens in its HTML view), or null
 * until the editor's code has loaded (this starts loading it). A stand-in for a field (the page editor's lite
 * cards) shows the static view only for HTML the field itself would show so. Null on the first render even when
 * the code is in (preloaded with the page editor): the check parses every text, so the page is drawn first.
 */
export function useVisualEditorKeeps(): ((html: string) => boolean) | null {
  const [keeps, setKeeps] = useState<((html: string) => boolean) | null>(null);
  useEffect(() => {
    if (keeps) return;
    let live = true;
    void loadEditor().then((m) => live && setKeeps(() => m.visualEditorKeeps));
    return () => {
      live = false;
    };
  }, [keeps]);
  return keeps;
}

/**
 * `html`: the rich text control. Inside `DeferRichText` it starts as the field's sanitised HTML, laid out as the
 * editor lays it out, and becomes the editor (caret where the person clicked) on the first click or focus. HTML
 * the visual editor would not keep as it is mounts the editor at once, so the HTML view and its notice show.
 */
export function HtmlControl({
  loading,
  ...props
}: FieldControlProps & {
  /** Wraps the editor while it loads when nobody asked for it yet (the form's usual "Loading the editor…"). */
  loading: (control: ReactNode) => ReactNode;
}) {
  const defer = useContext(DeferRichText);
  // `eager`: the editor's code had loaded when the editor was asked for, so it mounts without Suspense. Chosen once:
  // switching later would mount a second editor, the caret back where the first took over.
  const [taken, setTaken] = useState<{ activation: Activation; eager: boolean } | null>(() =>
    !defer || props.isReadOnly || !props.value ? { activation: 'none', eager: loaded !== null } : null,
  );
  const take = (activation: Activation) => setTaken((now) => now ?? { activation, eager: loaded !== null });
  const { value, focusRef } = props;

  useEffect(() => {
    if (taken) return;
    let live = true;
    void loadEditor().then((m) => {
      if (live && !m.visualEditorKeeps(value ?? '')) setTaken((now) => now ?? { activation: 'none', eager: true });
    });
    return () => {
      live = false;
    };
  }, [taken, value]);

  useEffect(() => {
    if (taken) return;
    focusRef?.({
      focus: () => {
        holdKeys();
        setTaken({ activation: 'start', eager: loaded !== null });
      },
    });
    return () => focusRef?.(null);
  }, [taken, focusRef]);

  const preview = <RichTextPreview {...props} onActivate={take} />;
  if (!taken) return preview;
  const { activation } = taken;
  // The editor's code already in when the editor was asked for: it mounts in this very render, so keys typed right
  // after a click reach it, and a widget just added has its caret at once (the lazy component would wait a tick).
  if (taken.eager && loaded) return <loaded.RichTextControl {...props} activation={activation} />;
  // Mounted at once (no deferring, nothing to show, or HTML only the HTML view keeps): the usual loading line.
  if (activation === 'none') return loading(<RichTextControl {...props} activation="none" />);
  return (
    <Suspense fallback={preview}>
      <RichTextControl {...props} activation={activation} />
    </Suspense>
  );
}

/**
 * The field as the editor will show it, without the editor: a focusable text box that becomes the editor
 * (`onActivate`: where the person clicked, or 'start' on focus). Keys typed until the editor has the focus are
 * held for it (activation.ts), unless the field is read-only (no editor comes).
 */
export function RichTextPreview({
  def,
  value,
  errorMessage,
  isReadOnly,
  onActivate,
}: Pick<FieldControlProps, 'def' | 'value' | 'errorMessage' | 'isReadOnly'> & {
  onActivate: (a: Activation) => void;
}) {
  // Sanitised once per value: the card around it draws again when its place in the region changes.
  const html = useMemo(() => sanitizeHtml(value ?? ''), [value]);
  const activate = (a: Activation) => {
    if (!isReadOnly) holdKeys();
    onActivate(a);
  };
  const onMouseDown = (e: MouseEvent<HTMLDivElement>) => {
    const at = pressPoint(e);
    if (at) activate(at);
  };
  return (
    <FieldShell
      label={def.label}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      className="rich-text"
    >
      {({ labelId, describedBy, isInvalid }) => (
        <div className="rich-text__frame" data-invalid={isInvalid || undefined} data-mode="visual">
          <div className="rich-text__toolbar rich-text__toolbar--placeholder" aria-hidden="true" />
          <div className="rich-text__body">
            <div
              className="rich-text__prose rich-text__editable"
              role="textbox"
              aria-multiline="true"
              aria-labelledby={labelId}
              aria-describedby={describedBy}
              aria-invalid={isInvalid || undefined}
              tabIndex={0}
              data-rich-text-static=""
              onMouseDown={onMouseDown}
              onClick={(e) => e.preventDefault()}
              onFocus={() => activate('start')}
              // Sanitised by the app's one sanitiser: it renders no script, handler or javascript: URL.
              dangerouslySetInnerHTML={{ __html: html }}
            />
          </div>
        </div>
      )}
    </FieldShell>
  );
}
