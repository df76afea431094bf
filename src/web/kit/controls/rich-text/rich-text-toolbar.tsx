import type { Editor } from '@tiptap/react';
import { useEditorState } from '@tiptap/react';
import {
  Button as AriaButton,
  ListBox,
  ListBoxItem,
  Popover,
  Select,
  SelectValue,
  Separator,
  ToggleButton,
  Toolbar,
} from 'react-aria-components';
import {
  BoldIcon,
  BulletListIcon,
  ChevronDownIcon,
  CodeIcon,
  ImageIcon,
  ItalicIcon,
  LinkIcon,
  OrderedListIcon,
  QuoteIcon,
  RedoIcon,
  RuleIcon,
  SourceIcon,
  StrikeIcon,
  UnderlineIcon,
  UndoIcon,
} from '../../../components/ui/icons';
import { MOD, MoreFormattingMenu, SHIFT, TableMenu, ToolButton } from './toolbar-parts';

/** How the rich text is edited: visually (tiptap) or as HTML (CodeMirror). */
export type Mode = 'visual' | 'source';
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

/** The rich text editor's toolbar: undo, text style, marks, lists, link, image, the two menus and the HTML view. */
export function RichTextToolbar({
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
            <CodeIcon />
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
          <MoreFormattingMenu
            editor={editor}
            isOn={{ strike: state.strike, code: state.code, quote: state.blockquote }}
          />
          <TableMenu editor={editor} isInTable={state.table} />
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
