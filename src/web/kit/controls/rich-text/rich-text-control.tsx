import { Editor as TiptapEditor, Extension } from '@tiptap/core';
import { TextSelection } from '@tiptap/pm/state';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  Button as AriaButton,
  ListBox,
  ListBoxItem,
  Menu,
  MenuItem,
  MenuTrigger,
  Popover,
  Select,
  SelectValue,
  Separator,
  ToggleButton,
  Toolbar,
  type Key,
} from 'react-aria-components';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { FormDialog } from '../../../components/ui/dialog';
import { FieldShell } from '../../../components/ui/field-shell';
import { CheckIcon, ChevronDownIcon, MoreIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { assetFileUrl } from '../../../lib/assets';
import { sanitizeHtml } from '../../../lib/sanitize-html';
import type { FieldControlProps } from '../../field-control';
import { useKitServices } from '../../kit-services';
import type { CodeEditorHandle } from '../code/code-editor';
import { richTextExtensions, serializeEditorHtml } from './extensions';
import { checkFidelity, listLosses, type Fidelity } from './fidelity';
import { checkLinkUrl } from './link-url';
import { cleanPastedHtml, isEditorClipboard } from './paste-cleanup';
import {
  BoldIcon,
  BulletListIcon,
  ImageIcon,
  InlineCodeIcon,
  ItalicIcon,
  LinkIcon,
  OrderedListIcon,
  QuoteIcon,
  RedoIcon,
  RuleIcon,
  SourceIcon,
  StrikeIcon,
  TableIcon,
  UnderlineIcon,
  UndoIcon,
} from './toolbar-icons';
import './rich-text.css';

// The HTML view's CodeMirror (with the HTML, CSS and JavaScript parsers) loads the first time it opens: most
// rich text is edited visually, and the page editor shows many rich text fields at once.
const CodeEditor = lazy(() => import('../code/code-editor').then((m) => ({ default: m.CodeEditor })));

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = isMac ? '⌘' : 'Ctrl+';
const SHIFT = isMac ? '⇧' : 'Shift+';

type Mode = 'visual' | 'source';
type BlockStyle = 'paragraph' | 'h1' | 'h2' | 'h3' | 'h4' | 'h5' | 'h6' | 'codeBlock';

const BLOCK_STYLES: { id: BlockStyle; label: string; offered: boolean }[] = [
  { id: 'paragraph', label: 'Paragraph', offered: true },
  { id: 'h2', label: 'Heading 2', offered: true },
  { id: 'h3', label: 'Heading 3', offered: true },
  { id: 'h4', label: 'Heading 4', offered: true },
  { id: 'h1', label: 'Heading 1', offered: false },
  { id: 'h5', label: 'Heading 5', offered: false },
  { id: 'h6', label: 'Heading 6', offered: false },
  { id: 'codeBlock', label: 'Code block', offered: true },
];

/** What the editor saves from what it holds now. */
const outputOf = (editor: Editor) => serializeEditorHtml(editor.getHTML());

/**
 * `html`: rich text edited in place with tiptap — headings, marks, lists, quotes, links, images from the asset
 * library, tables, undo — and an HTML view. Stored HTML the editor cannot hold (fidelity.ts) opens in the HTML view,
 * saying what the visual editor would drop; nothing is rewritten unless the user edits. Loaded on first use.
 */
export function RichTextControl(props: FieldControlProps) {
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
}: FieldControlProps & { labelId: string; describedBy?: string; isInvalid: boolean }) {
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
      known.current = next ?? '';
      setSource(next ?? '');
      handlers.current.onChange(next);
    },
    onBlur: () => handlers.current.onBlur?.(),
  });

  // A new value from outside (the form was reset or reloaded): show it, and check it again.
  useEffect(() => {
    const next = value ?? '';
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

  openLinkDialog.current = () => setDialog('link');

  const handleSourceChange = (html: string) => {
    setSource(html);
    known.current = html;
    onChange(html);
  };

  const switchTo = (next: Mode) => {
    if (!editor || next === mode) return;
    if (next === 'source') {
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
      {editor && (
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

/** What the editor would save from `html`, worked out in a detached editor (the one on screen is untouched). */
function throughEditor(html: string): string {
  const probe = new TiptapEditor({ extensions: richTextExtensions(), content: html });
  const out = outputOf(probe);
  probe.destroy();
  return out;
}

function ToolButton({
  label,
  shortcut,
  keys,
  isSelected,
  isDisabled,
  secondary,
  onPress,
  children,
}: {
  label: string;
  shortcut?: string;
  /** For aria-keyshortcuts ("Control+B"). */
  keys?: string;
  isSelected?: boolean;
  isDisabled?: boolean;
  /** Moves into the "More formatting" menu when the editor is narrow. */
  secondary?: boolean;
  onPress: () => void;
  children: ReactNode;
}) {
  const title = shortcut ? `${label} (${shortcut})` : label;
  const className = secondary ? 'rich-text__tool rich-text__tool--secondary' : 'rich-text__tool';
  if (isSelected === undefined) {
    return (
      <AriaButton
        className={className}
        aria-label={label}
        aria-keyshortcuts={keys}
        data-title={title}
        isDisabled={isDisabled}
        onPress={onPress}
      >
        {children}
      </AriaButton>
    );
  }
  return (
    <ToggleButton
      className={className}
      aria-label={label}
      aria-keyshortcuts={keys}
      data-title={title}
      isSelected={isSelected}
      isDisabled={isDisabled}
      onChange={onPress}
    >
      {children}
    </ToggleButton>
  );
}

/** An entry of the "More formatting" menu: its name, whether it is on at the cursor, and its shortcut. */
function MoreItem({ label, shortcut, isOn }: { label: string; shortcut?: string; isOn?: boolean }) {
  return (
    <span className="rich-text__more-item">
      <span className="rich-text__more-check" aria-hidden="true">
        {isOn ? <CheckIcon /> : null}
      </span>
      <span>
        {label}
        {isOn && <span className="visually-hidden"> (on)</span>}
      </span>
      {shortcut && <kbd className="rich-text__more-keys">{shortcut}</kbd>}
    </span>
  );
}

function RichTextToolbar({
  editor,
  label,
  mode,
  onModeChange,
  onLink,
  onImage,
  onAlt,
}: {
  editor: Editor;
  label: string;
  mode: Mode;
  onModeChange: (mode: Mode) => void;
  onLink: () => void;
  onImage: () => void;
  onAlt: () => void;
}) {
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      underline: e.isActive('underline'),
      strike: e.isActive('strike'),
      code: e.isActive('code'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      blockquote: e.isActive('blockquote'),
      link: e.isActive('link'),
      image: e.isActive('image'),
      table: e.isActive('table'),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
      block: (e.isActive('codeBlock')
        ? 'codeBlock'
        : ([1, 2, 3, 4, 5, 6].map((l) => (e.isActive('heading', { level: l }) ? `h${l}` : null)).find(Boolean) ??
          'paragraph')) as BlockStyle,
    }),
  });
  const visual = mode === 'visual';
  const chain = () => editor.chain().focus();
  const styles = BLOCK_STYLES.filter((s) => s.offered || s.id === state.block);

  const setBlock = (style: BlockStyle) => {
    if (style === 'paragraph') chain().setParagraph().run();
    else if (style === 'codeBlock') chain().setCodeBlock().run();
    else
      chain()
        .setHeading({ level: Number(style.slice(1)) as 1 | 2 | 3 | 4 | 5 | 6 })
        .run();
  };

  const moreActions = {
    strike: () => chain().toggleStrike().run(),
    code: () => chain().toggleCode().run(),
    quote: () => chain().toggleBlockquote().run(),
    rule: () => chain().setHorizontalRule().run(),
  };

  const tableAction = (key: Key) => {
    const c = chain();
    switch (key) {
      case 'rowBefore':
        return c.addRowBefore().run();
      case 'rowAfter':
        return c.addRowAfter().run();
      case 'colBefore':
        return c.addColumnBefore().run();
      case 'colAfter':
        return c.addColumnAfter().run();
      case 'deleteRow':
        return c.deleteRow().run();
      case 'deleteCol':
        return c.deleteColumn().run();
      case 'headerRow':
        return c.toggleHeaderRow().run();
      case 'deleteTable':
        return c.deleteTable().run();
      case 'insert':
        return c.insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run();
    }
  };

  return (
    <Toolbar aria-label={`Formatting of ${label}`} className="rich-text__toolbar">
      {visual && (
        <>
          <ToolButton
            label="Undo"
            shortcut={`${MOD}Z`}
            keys="Control+Z"
            isDisabled={!state.canUndo}
            onPress={() => chain().undo().run()}
          >
            <UndoIcon />
          </ToolButton>
          <ToolButton
            label="Redo"
            shortcut={`${MOD}${SHIFT}Z`}
            keys="Control+Shift+Z"
            isDisabled={!state.canRedo}
            onPress={() => chain().redo().run()}
          >
            <RedoIcon />
          </ToolButton>
          <Separator orientation="vertical" className="rich-text__separator" />
          <Select
            aria-label="Text style"
            className="rich-text__style"
            value={state.block}
            onChange={(key) => key !== null && setBlock(String(key) as BlockStyle)}
          >
            <AriaButton className="rich-text__style-button">
              <SelectValue>{({ selectedText }) => selectedText}</SelectValue>
              <ChevronDownIcon />
            </AriaButton>
            <Popover className="popover" offset={4}>
              <ListBox className="listbox" items={styles}>
                {(s) => (
                  <ListBoxItem id={s.id} className="listbox__item" textValue={s.label}>
                    <span className={`rich-text__style-sample rich-text__style-sample--${s.id}`}>{s.label}</span>
                  </ListBoxItem>
                )}
              </ListBox>
            </Popover>
          </Select>
          <Separator orientation="vertical" className="rich-text__separator" />
          <ToolButton
            label="Bold"
            shortcut={`${MOD}B`}
            keys="Control+B"
            isSelected={state.bold}
            onPress={() => chain().toggleBold().run()}
          >
            <BoldIcon />
          </ToolButton>
          <ToolButton
            label="Italic"
            shortcut={`${MOD}I`}
            keys="Control+I"
            isSelected={state.italic}
            onPress={() => chain().toggleItalic().run()}
          >
            <ItalicIcon />
          </ToolButton>
          <ToolButton
            label="Underline"
            shortcut={`${MOD}U`}
            keys="Control+U"
            isSelected={state.underline}
            onPress={() => chain().toggleUnderline().run()}
          >
            <UnderlineIcon />
          </ToolButton>
          <ToolButton
            label="Strikethrough"
            secondary
            shortcut={`${MOD}${SHIFT}S`}
            keys="Control+Shift+S"
            isSelected={state.strike}
            onPress={() => chain().toggleStrike().run()}
          >
            <StrikeIcon />
          </ToolButton>
          <ToolButton
            label="Inline code"
            secondary
            shortcut={`${MOD}E`}
            keys="Control+E"
            isSelected={state.code}
            onPress={() => chain().toggleCode().run()}
          >
            <InlineCodeIcon />
          </ToolButton>
          <Separator orientation="vertical" className="rich-text__separator" />
          <ToolButton
            label="Bulleted list"
            shortcut={`${MOD}${SHIFT}8`}
            keys="Control+Shift+8"
            isSelected={state.bulletList}
            onPress={() => chain().toggleBulletList().run()}
          >
            <BulletListIcon />
          </ToolButton>
          <ToolButton
            label="Numbered list"
            shortcut={`${MOD}${SHIFT}7`}
            keys="Control+Shift+7"
            isSelected={state.orderedList}
            onPress={() => chain().toggleOrderedList().run()}
          >
            <OrderedListIcon />
          </ToolButton>
          <ToolButton
            label="Quote"
            secondary
            shortcut={`${MOD}${SHIFT}B`}
            keys="Control+Shift+B"
            isSelected={state.blockquote}
            onPress={() => chain().toggleBlockquote().run()}
          >
            <QuoteIcon />
          </ToolButton>
          <ToolButton label="Horizontal line" secondary onPress={() => chain().setHorizontalRule().run()}>
            <RuleIcon />
          </ToolButton>
          <Separator orientation="vertical" className="rich-text__separator" />
          <ToolButton
            label={state.link ? 'Edit link' : 'Link'}
            shortcut={`${MOD}K`}
            keys="Control+K"
            isSelected={state.link}
            onPress={onLink}
          >
            <LinkIcon />
          </ToolButton>
          <ToolButton label="Image from the asset library" onPress={onImage}>
            <ImageIcon />
          </ToolButton>
          {state.image && (
            <AriaButton className="rich-text__tool rich-text__tool--text" onPress={onAlt}>
              Alt text…
            </AriaButton>
          )}
          <MenuTrigger>
            <AriaButton
              className="rich-text__tool rich-text__more"
              aria-label="More formatting"
              data-title="More formatting"
            >
              <MoreIcon />
            </AriaButton>
            <Popover className="popover" offset={4}>
              <Menu className="menu" onAction={(key: Key) => moreActions[String(key) as keyof typeof moreActions]()}>
                <MenuItem id="strike" className="menu__item" textValue="Strikethrough">
                  <MoreItem label="Strikethrough" shortcut={`${MOD}${SHIFT}S`} isOn={state.strike} />
                </MenuItem>
                <MenuItem id="code" className="menu__item" textValue="Inline code">
                  <MoreItem label="Inline code" shortcut={`${MOD}E`} isOn={state.code} />
                </MenuItem>
                <MenuItem id="quote" className="menu__item" textValue="Quote">
                  <MoreItem label="Quote" shortcut={`${MOD}${SHIFT}B`} isOn={state.blockquote} />
                </MenuItem>
                <MenuItem id="rule" className="menu__item" textValue="Horizontal line">
                  <MoreItem label="Horizontal line" />
                </MenuItem>
              </Menu>
            </Popover>
          </MenuTrigger>
          <MenuTrigger>
            <AriaButton className="rich-text__tool" aria-label="Table" data-title="Table">
              <TableIcon />
              <ChevronDownIcon className="rich-text__tool-chevron" />
            </AriaButton>
            <Popover className="popover" offset={4}>
              <Menu
                className="menu"
                onAction={tableAction}
                disabledKeys={
                  state.table
                    ? ['insert']
                    : [
                        'rowBefore',
                        'rowAfter',
                        'colBefore',
                        'colAfter',
                        'deleteRow',
                        'deleteCol',
                        'headerRow',
                        'deleteTable',
                      ]
                }
              >
                <MenuItem id="insert" className="menu__item">
                  Insert a table
                </MenuItem>
                <MenuItem id="rowBefore" className="menu__item">
                  Add a row above
                </MenuItem>
                <MenuItem id="rowAfter" className="menu__item">
                  Add a row below
                </MenuItem>
                <MenuItem id="colBefore" className="menu__item">
                  Add a column before
                </MenuItem>
                <MenuItem id="colAfter" className="menu__item">
                  Add a column after
                </MenuItem>
                <MenuItem id="headerRow" className="menu__item">
                  Header row on or off
                </MenuItem>
                <MenuItem id="deleteRow" className="menu__item menu__item--danger">
                  Delete the row
                </MenuItem>
                <MenuItem id="deleteCol" className="menu__item menu__item--danger">
                  Delete the column
                </MenuItem>
                <MenuItem id="deleteTable" className="menu__item menu__item--danger">
                  Delete the table
                </MenuItem>
              </Menu>
            </Popover>
          </MenuTrigger>
        </>
      )}
      <span className="rich-text__toolbar-end">
        <ToggleButton
          className="rich-text__tool rich-text__tool--text"
          isSelected={!visual}
          onChange={(on) => onModeChange(on ? 'source' : 'visual')}
          aria-label="HTML view"
          data-title="Edit the HTML"
        >
          <SourceIcon /> <span className="rich-text__tool-text">HTML</span>
        </ToggleButton>
      </span>
    </Toolbar>
  );
}

/** Add, edit or remove the link at the selection: the address is checked; "open in a new tab" sets target and rel. */
function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const current = editor.getAttributes('link') as { href?: string; target?: string | null };
  const isEditing = Boolean(current.href);
  const [url, setUrl] = useState(current.href ?? '');
  const [newTab, setNewTab] = useState(current.target === '_blank');
  const [touched, setTouched] = useState(false);
  const check = checkLinkUrl(url);
  const emptySelection = editor.state.selection.empty && !isEditing;

  const close = () => {
    onClose();
    editor.commands.focus();
  };
  const apply = () => {
    setTouched(true);
    if (!check.ok) return;
    const attrs = { href: check.url, target: newTab ? '_blank' : null, rel: newTab ? 'noopener noreferrer' : null };
    const c = editor.chain().focus();
    if (emptySelection) c.insertContent({ type: 'text', text: check.url, marks: [{ type: 'link', attrs }] });
    else c.extendMarkRange('link').setLink(attrs);
    // The cursor goes after the link, and what is typed next is not part of it (links are inclusive for autolink).
    c.command(({ tr }) => {
      tr.setSelection(TextSelection.create(tr.doc, tr.selection.to));
      const link = tr.doc.type.schema.marks.link;
      tr.setStoredMarks(tr.selection.$from.marks().filter((m) => m.type !== link));
      return true;
    }).run();
    onClose();
  };
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && close()}
      title={isEditing ? 'Edit link' : 'Add a link'}
      description={emptySelection ? 'Nothing is selected: the address is inserted as the link’s text.' : undefined}
      submitLabel={isEditing ? 'Save link' : 'Add link'}
      onSubmit={apply}
    >
      <TextField
        label="Address"
        value={url}
        onChange={(v) => {
          setUrl(v);
          setTouched(true);
        }}
        autoFocus
        placeholder="https://example.com/page"
        description="A web address, a page of this site (/about), mailto:… or tel:…"
        errorMessage={touched && !check.ok ? check.message : undefined}
      />
      <Checkbox isSelected={newTab} onChange={setNewTab}>
        Open in a new tab
      </Checkbox>
      {isEditing && (
        <Button
          variant="quiet"
          onPress={() => {
            editor.chain().focus().extendMarkRange('link').unsetLink().run();
            onClose();
          }}
        >
          Remove the link
        </Button>
      )}
    </FormDialog>
  );
}

/** The selected image's alternative text (it starts as the asset's own). */
function AltTextDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [alt, setAlt] = useState((editor.getAttributes('image').alt as string | null) ?? '');
  const close = () => {
    onClose();
    editor.commands.focus();
  };
  return (
    <FormDialog
      isOpen
      onOpenChange={(open) => !open && close()}
      title="Alternative text"
      description="Describes the image for people who cannot see it. Leave it empty only for a decorative image."
      submitLabel="Save"
      onSubmit={() => {
        editor.chain().focus().updateAttributes('image', { alt }).run();
        onClose();
      }}
    >
      <TextField label="Alternative text" value={alt} onChange={setAlt} autoFocus />
    </FormDialog>
  );
}

export default RichTextControl;
