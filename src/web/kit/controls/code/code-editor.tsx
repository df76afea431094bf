import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { sql } from '@codemirror/lang-sql';
import { bracketMatching, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Annotation, Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  placeholder as placeholderExtension,
} from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { closeTagOvertype } from './close-tag-overtype';
import './code-editor.css';

/** Marks changes that come from outside (a new value), so they are not reported back as the user's edits. */
const external = Annotation.define<boolean>();

/** Syntax colours from the app's tokens (code-editor.css), so light and dark both read well. */
const highlight = HighlightStyle.define([
  { tag: [tags.tagName, tags.keyword], color: 'var(--code-keyword)' },
  { tag: [tags.attributeName, tags.propertyName], color: 'var(--code-attribute)' },
  { tag: [tags.string, tags.attributeValue], color: 'var(--code-string)' },
  { tag: [tags.comment], color: 'var(--code-comment)', fontStyle: 'italic' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--code-number)' },
  { tag: [tags.angleBracket, tags.operator, tags.punctuation], color: 'var(--code-punctuation)' },
]);

export type CodeLanguage = 'html' | 'sql' | 'plain';

/** Where a person went in the field's static view (code-control.tsx): a point of it (px from its corner), or its start. */
export type CodeActivation = { x: number; y: number } | 'start';

export interface CodeEditorHandle {
  focus(): void;
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: CodeLanguage;
  /** Id of the element that names the editor (its field label). */
  labelledBy: string;
  describedBy?: string;
  isReadOnly?: boolean;
  isInvalid?: boolean;
  placeholder?: string;
  onBlur?: () => void;
  /** Made from the static view: focused as it mounts, the caret at that point of it or at the start. */
  activation?: CodeActivation;
}

/**
 * A CodeMirror 6 editor for HTML or queries: line numbers, highlighting, bracket matching, undo. Tab is left to
 * the browser (it moves focus on, as everywhere else in the app); indentation follows Enter.
 */
export const CodeEditor = forwardRef<CodeEditorHandle, CodeEditorProps>(function CodeEditor(
  { value, onChange, language, labelledBy, describedBy, isReadOnly, isInvalid, placeholder, onBlur, activation },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, onBlur });
  handlers.current = { onChange, onBlur };

  useImperativeHandle(ref, () => ({ focus: () => view.current?.focus() }), []);

  // What the props set beyond the language lives in compartments and is reconfigured in place: rebuilding the
  // editor when its field turned invalid (or its description changed) lost the focus and the undo history while
  // the user was typing.
  const settings = useRef(new Compartment());
  const lines = useRef(new Compartment());
  const settingsOf = (): Extension => [
    EditorState.readOnly.of(Boolean(isReadOnly)),
    EditorView.editable.of(!isReadOnly),
    EditorView.contentAttributes.of({
      'aria-labelledby': labelledBy,
      ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      ...(isInvalid ? { 'aria-invalid': 'true' } : {}),
      'aria-multiline': 'true',
    }),
    placeholder ? placeholderExtension(placeholder) : [],
  ];

  useEffect(() => {
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      foldGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      bracketMatching(),
      highlightActiveLine(),
      syntaxHighlighting(highlight),
      keymap.of([...defaultKeymap, ...historyKeymap]),
      EditorView.lineWrapping,
      settings.current.of(settingsOf()),
      lines.current.of(lineSeparatorOf(value)),
      EditorView.updateListener.of((update) => {
        if (update.docChanged && !update.transactions.some((t) => t.annotation(external))) {
          handlers.current.onChange(update.state.sliceDoc());
        }
        if (update.focusChanged && !update.view.hasFocus) handlers.current.onBlur?.();
      }),
    ];
    if (language === 'html') extensions.push(html({ autoCloseTags: true }), closeTagOvertype());
    if (language === 'sql') extensions.push(sql());
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = v;
    if (activation) takeOver(v, activation);
    return () => {
      v.destroy();
      view.current = null;
    };
    // The editor is built once per language; the other props and `value` are applied below.
  }, [language]);

  useEffect(() => {
    view.current?.dispatch({ effects: settings.current.reconfigure(settingsOf()) });
  }, [isReadOnly, labelledBy, describedBy, isInvalid, placeholder]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    // `sliceDoc` joins the lines with the state's own line break, so a value written with CRLF reads back as it was.
    const current = v.state.sliceDoc();
    if (current !== value) {
      // The line separator first: the new value is split into lines by the state it is inserted into.
      v.dispatch({ effects: lines.current.reconfigure(lineSeparatorOf(value)), annotations: external.of(true) });
      v.dispatch({
        changes: { from: 0, to: v.state.doc.length, insert: value },
        annotations: external.of(true),
      });
    }
  }, [value]);

  return <div ref={host} className="code-editor" data-invalid={isInvalid || undefined} />;
});

/** Focuses a new editor made from the static view, the caret where the person pressed (or at the start). */
function takeOver(v: EditorView, activation: CodeActivation) {
  if (activation !== 'start') {
    const box = v.scrollDOM.getBoundingClientRect();
    const pos = v.posAtCoords({ x: box.left + activation.x, y: box.top + activation.y - v.scrollDOM.scrollTop });
    if (pos !== null) v.dispatch({ selection: { anchor: pos } });
  }
  v.focus();
}

/**
 * Keeps a value's line breaks as they are when it uses CRLF throughout (HTML pasted from Windows tools, imported
 * content): by default CodeMirror splits lines at any break and joins them with LF, so the first keystroke would
 * have rewritten every line break of the value. Mixed or LF-only values use the default.
 */
function lineSeparatorOf(value: string): Extension {
  return value.includes('\r\n') && !/\r(?!\n)|(?<!\r)\n/.test(value) ? EditorState.lineSeparator.of('\r\n') : [];
}
