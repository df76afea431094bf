import { createDocument, Editor as TiptapEditor, Extension, getHTMLFromFragment, getSchema } from '@tiptap/core';
import type { Schema } from '@tiptap/pm/model';
import { EditorContent, useEditor, type Editor } from '@tiptap/react';
import {
  lazy,
  startTransition,
  Suspense,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { FormDialog } from '../../../components/ui/dialog';
import { FieldShell } from '../../../components/ui/field-shell';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { assetFileUrl } from '../../../lib/assets';
import { sanitizeHtml } from '../../../lib/sanitize-html';
import type { FieldControlProps } from '../../field-control';
import { DeferRichText } from '../../defer-rich-text';
import { useKitServices } from '../../kit-services';
import type { CodeEditorHandle } from '../code/code-editor';
import { AltTextDialog } from './alt-text-dialog';
import { richTextExtensions, serializeEditorHtml } from './extensions';
import { checkFidelity, listLosses, type Fidelity } from './fidelity';
import { LinkDialog } from './link-dialog';
import { cleanPastedHtml, isEditorClipboard } from './paste-cleanup';
import { releaseKeys, type Activation } from './activation';
import { RichTextToolbar, type Mode } from './rich-text-toolbar';
import './rich-text.css';

// The HTML view's CodeMirror (with the HTML, CSS and JavaScript parsers) loads the first time it opens: most
// rich text is edited visually, and the page editor shows many rich text fields at once.
const CodeEditor = lazy(() => import('../code/code-editor').then((m) => ({ default: m.CodeEditor })));

/** What the editor saves from what it holds now. */
const outputOf = (editor: Editor) => serializeEditorHtml(editor.getHTML());

/**
 * `html`: rich text edited in place with tiptap — headings, marks, lists, quotes, links, images from the asset
 * library, tables, undo — and an HTML view. Stored HTML the editor cannot hold (fidelity.ts) opens in the HTML view,
 * saying what the visual editor would drop; nothing is rewritten unless the user edits. Loaded on first use.
 */
export function RichTextControl(props: FieldControlProps & { activation?: Activation }) {
  const { def, value, errorMessage, isReadOnly } = props;
  if (isReadOnly) {
    return (
      <FieldShell label={def.label} description={def.help}>
        {({ labelId }) => (
          <div
            className="rich-text__readonly rich-text__prose"
            aria-labelledby={labelId}
            role="document"
            // Sanitised by the app's one sanitiser: it renders no script, handler or javascript: URL.
            dangerouslySetInnerHTML={{ __html: sanitizeHtml(value ?? '') }}
          />
        )}
      </FieldShell>
    );
  }
  return (
    <FieldShell
      label={def.label}
      description={def.help}
      errorMessage={errorMessage}
      isRequired={def.required}
      className="rich-text"
    >
      {(ids) => (
        <RichTextEditor {...props} labelId={ids.labelId} describedBy={ids.describedBy} isInvalid={ids.isInvalid} />
      )}
    </FieldShell>
  );
}

function RichTextEditor({
  def,
  value,
  onChange,
  onBlur,
  focusRef,
  labelId,
  describedBy,
  isInvalid,
  activation = 'none',
}: FieldControlProps & { labelId: string; describedBy?: string; isInvalid: boolean; activation?: Activation }) {
  const services = useKitServices();
  const [mode, setMode] = useState<Mode>('visual');
  const [fidelity, setFidelity] = useState<Fidelity>({ representable: true, losses: [] });
  const [dialog, setDialog] = useState<null | 'link' | 'alt' | 'to-visual'>(null);
  const [source, setSource] = useState(value ?? '');
  /** The last value this control reported or was given: a different `value` comes from outside (a reset). */
  const known = useRef(value ?? '');
  /**
   * The value the visual editor was last loaded with, and what the editor writes for it (tiptap writes much HTML
   * its own way: <b> as <strong>, text in paragraphs). An edit that comes back to that output — undone, or typed
   * and deleted — reports the loaded value as it was, so the editor's way of writing it is never a change.
   */
  const loaded = useRef<{ value: string | null; output: string | null }>({ value, output: null });
  const sourceEditor = useRef<CodeEditorHandle>(null);
  const openLinkDialog = useRef<() => void>(() => {});
  const handlers = useRef({ onChange, onBlur });
  handlers.current = { onChange, onBlur };

  const extensions = useMemo(
    () => [
      ...richTextExtensions(),
      Extension.create({
        name: 'folioShortcuts',
        addKeyboardShortcuts: () => ({
          'Mod-k': () => {
            // A selection the browser just made (Shift+Home, Shift+arrows) reaches the editor with the next
            // selectionchange event: open after it, so the link goes on the selected words.
            setTimeout(() => openLinkDialog.current(), 0);
            return true;
          },
        }),
      }),
    ],
    [],
  );

  const editor = useEditor({
    extensions,
    content: value ?? '',
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: {
      attributes: {
        class: 'rich-text__prose rich-text__editable',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelId,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        ...(isInvalid ? { 'aria-invalid': 'true' } : {}),
      },
      // Word, Google Docs and web pages bring their own markup: keep the structure, drop their look.
      transformPastedHTML: (html) => (isEditorClipboard(html) ? html : cleanPastedHtml(html)),
    },
    onCreate: ({ editor: created }) => {
      const output = outputOf(created);
      loaded.current = { value, output };
      const check = checkFidelity(value ?? '', output);
      setFidelity(check);
      if (!check.representable) setMode('source');
    },
    onUpdate: ({ editor: changed }) => {
      const html = outputOf(changed);
      const next = html === loaded.current.output ? loaded.current.value : html;
      // Not kept in state while typing (a render of the control and its toolbar per keystroke): the HTML view
      // takes `known` when it opens.
      known.current = next ?? '';
      handlers.current.onChange(next);
    },
    onBlur: () => handlers.current.onBlur?.(),
  });

  // Taking over from the static view (rich-text-deferred.tsx): the caret where the person clicked, or at the start.
  const taken = useRef(false);
  useLayoutEffect(() => {
    if (taken.current || !editor || activation === 'none') return;
    taken.current = true;
    let at: 'start' | 'end' | number = 'start';
    if (activation !== 'start') {
      const box = editor.view.dom.getBoundingClientRect();
      try {
        at = editor.view.posAtCoords({ left: box.left + activation.x, top: box.top + activation.y })?.pos ?? 'end';
      } catch {
        // No layout to ask (a test DOM): the caret goes to the end.
        at = 'end';
      }
    }
    // tiptap's focus sets the selection now but focuses in the next frame: a key typed before that frame (the
    // static view is gone by then) would be lost, so the view takes the focus now.
    editor.commands.focus(at, { scrollIntoView: false });
    editor.view.focus();
    // Keys typed since the press or focus, held until now (activation.ts).
    releaseKeys(editor);
  }, [editor, activation]);

  // A new value from outside (the form was reset or reloaded): show it, and check it again. Only a `value` that
  // changed counts: keys typed before the editor came (activation.ts) edit it before this first runs.
  const given = useRef(value);
  useEffect(() => {
    const next = value ?? '';
    if (value === given.current) return;
    given.current = value;
    if (next === known.current || !editor) return;
    known.current = next;
    setSource(next);
    editor.commands.setContent(next, { emitUpdate: false });
    const output = outputOf(editor);
    loaded.current = { value, output };
    const check = checkFidelity(next, output);
    setFidelity(check);
    setMode(check.representable ? 'visual' : 'source');
  }, [value, editor]);

  useEffect(() => {
    focusRef?.({
      focus: () => (mode === 'visual' ? editor?.commands.focus() : sourceEditor.current?.focus()),
    });
    return () => focusRef?.(null);
  }, [focusRef, editor, mode]);

  // In the page editor (DeferRichText) the toolbar (react-aria buttons, a select, two menus: most of this control's
  // first render) comes after the frame that shows the editor, in the static view's one-row place: a click into a
  // text, or a widget just added, has its caret first. Elsewhere it comes at once (it may wrap to two rows: drawn
  // later, it would move what is below under the pointer).
  const [toolbarShown, setToolbarShown] = useState(!useContext(DeferRichText));
  useEffect(() => {
    if (toolbarShown) return;
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => startTransition(() => setToolbarShown(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [toolbarShown]);

  openLinkDialog.current = () => setDialog('link');

  const handleSourceChange = (html: string) => {
    setSource(html);
    known.current = html;
    onChange(html);
  };

  const switchTo = (next: Mode) => {
    if (!editor || next === mode) return;
    if (next === 'source') {
      setSource(known.current);
      setMode('source');
      return;
    }
    // To the visual editor: load the HTML as it is now, and see whether it survives.
    const probe = checkFidelity(source, throughEditor(source));
    if (!probe.representable) {
      setFidelity(probe);
      setDialog('to-visual');
      return;
    }
    editor.commands.setContent(source, { emitUpdate: false });
    // The HTML view holds the field's value as it is (`source` is "" for an unset one).
    loaded.current = { value: source === (value ?? '') ? value : source, output: outputOf(editor) };
    setFidelity(probe);
    setMode('visual');
  };

  const confirmToVisual = () => {
    if (!editor) return;
    editor.commands.setContent(source, { emitUpdate: false });
    const html = outputOf(editor);
    loaded.current = { value: html, output: html };
    setDialog(null);
    setMode('visual');
    setFidelity({ representable: true, losses: [] });
    handleSourceChange(html);
  };

  const insertImage = async () => {
    if (!editor) return;
    const asset = await services.pickAsset({ title: 'Choose an image', types: ['cmsImageAsset'] });
    if (!asset) {
      editor.commands.focus();
      return;
    }
    editor
      .chain()
      .focus()
      .setImage({ src: assetFileUrl(asset), alt: asset.fields.alttext ?? '', title: undefined })
      .run();
  };

  return (
    <div className="rich-text__frame" data-invalid={isInvalid || undefined} data-mode={mode}>
      {!fidelity.representable && (
        <InlineAlert tone="info" title="Shown as HTML so nothing is lost">
          This text contains markup the visual editor cannot show: {listLosses(fidelity.losses)}. It is edited in the
          HTML view; switching to the visual editor would drop it.
        </InlineAlert>
      )}
      {editor && !toolbarShown && (
        <div className="rich-text__toolbar rich-text__toolbar--placeholder" aria-hidden="true" />
      )}
      {editor && toolbarShown && (
        <RichTextToolbar
          editor={editor}
          label={def.label}
          mode={mode}
          onModeChange={switchTo}
          onLink={() => setDialog('link')}
          onImage={() => void insertImage()}
          onAlt={() => setDialog('alt')}
        />
      )}
      <div className="rich-text__body" hidden={mode !== 'visual'}>
        <EditorContent editor={editor} />
      </div>
      {mode === 'source' && (
        <Suspense fallback={<SourceLoading />}>
          <CodeEditor
            ref={sourceEditor}
            value={source}
            onChange={handleSourceChange}
            onBlur={onBlur}
            language="html"
            labelledBy={labelId}
            describedBy={describedBy}
            isInvalid={isInvalid}
          />
        </Suspense>
      )}
      {editor && dialog === 'link' && <LinkDialog editor={editor} onClose={() => setDialog(null)} />}
      {editor && dialog === 'alt' && <AltTextDialog editor={editor} onClose={() => setDialog(null)} />}
      {dialog === 'to-visual' && (
        <FormDialog
          isOpen
          onOpenChange={(open) => !open && setDialog(null)}
          title="Switch to the visual editor?"
          description={`The visual editor cannot show ${listLosses(fidelity.losses)}. Switching drops it from this text.`}
          submitLabel="Switch and drop it"
          variant="danger"
          onSubmit={confirmToVisual}
        >
          <p className="dialog__description">Stay in the HTML view to keep everything as it is.</p>
        </FormDialog>
      )}
    </div>
  );
}

/** Where the HTML view will be, while CodeMirror loads. */
function SourceLoading() {
  return (
    <p className="field-loading rich-text__source-loading" role="status">
      <Spinner /> Loading the HTML view…
    </p>
  );
}

let schema: Schema | null = null;

/**
 * Whether the visual editor keeps `html` as it is (fidelity.ts), worked out from the editor's schema alone (no
 * editor view): the static view of a deferred field (rich-text-deferred.tsx) mounts the editor at once when not.
 */
export function visualEditorKeeps(html: string): boolean {
  schema ??= getSchema(richTextExtensions());
  const doc = createDocument(html, schema);
  return checkFidelity(html, serializeEditorHtml(getHTMLFromFragment(doc.content, schema))).representable;
}

/** What the editor would save from `html`, worked out in a detached editor (the one on screen is untouched). */
function throughEditor(html: string): string {
  const probe = new TiptapEditor({ extensions: richTextExtensions(), content: html });
  const out = outputOf(probe);
  probe.destroy();
  return out;
}

export default RichTextControl;
