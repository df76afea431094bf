import { Editor } from '@tiptap/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assetTypeDef } from '../../../../shared/registry';
import { dropKeys, HOLD_KEYS_MS, holdKeys, releaseKeys } from './activation';
import { richTextExtensions } from './extensions';
import { RichTextPreview } from './rich-text-deferred';

/*
 * Type-ahead: keys typed while a static rich text view becomes the editor are held, then typed into the editor.
 * What is held and what goes on as usual is decided on the keydown itself (prevented or not).
 */

/** Presses `key` as the browser would (a keydown on the focused element); answers whether the page took it. */
function press(key: string, init: KeyboardEventInit = {}): boolean {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  (document.activeElement ?? document.body).dispatchEvent(event);
  return event.defaultPrevented;
}

/** A focused editor holding `html`, the caret at `at`. */
function focusedEditor(html: string, at: number) {
  const element = document.createElement('div');
  document.body.append(element);
  const editor = new Editor({ element, extensions: richTextExtensions(), content: html });
  editor.view.focus();
  editor.commands.setTextSelection(at);
  return editor;
}

afterEach(() => {
  dropKeys();
  vi.useRealTimers();
  document.body.innerHTML = '';
});

describe('holding keys until the editor has the focus', () => {
  it('holds characters, Enter and Backspace, and types them into the editor over its selection', () => {
    holdKeys();
    for (const key of ['H', 'i', 'Enter', 'x', 'Enter', 'Backspace', '!']) expect(press(key), key).toBe(true);
    // "Alpha" with its "p" selected: the first key replaces it.
    const editor = focusedEditor('<p>Alpha</p>', 1);
    editor.commands.setTextSelection({ from: 3, to: 4 });
    releaseKeys(editor);
    // Backspace at the start of a paragraph joins it to the one before (the editor's own binding).
    expect(editor.getHTML()).toBe('<p>AlHi</p><p>x!ha</p>');
    editor.destroy();
  });

  it('types the keys as the editor binds them: Enter in a list makes a new item', () => {
    holdKeys();
    press('Enter');
    press('B');
    const editor = focusedEditor('<ul><li><p>A</p></li></ul>', 4);
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<ul><li><p>A</p></li><li><p>B</p></li></ul>');
    editor.destroy();
  });

  it('leaves shortcuts with Ctrl, Meta or Alt to the page, and keeps holding', () => {
    holdKeys();
    expect(press('s', { ctrlKey: true })).toBe(false);
    expect(press('z', { metaKey: true })).toBe(false);
    expect(press('ArrowLeft', { altKey: true })).toBe(false);
    expect(press('F5')).toBe(false);
    expect(press('a')).toBe(true);
    const editor = focusedEditor('<p>b</p>', 1);
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<p>ab</p>');
    editor.destroy();
  });

  it.each([
    ['Tab', () => press('Tab')],
    ['Escape', () => press('Escape')],
    ['a composition (IME)', () => press('Process', { isComposing: true })],
  ])('%s goes on as usual and lets the held keys go', (_name, act) => {
    holdKeys();
    press('a');
    expect(act()).toBe(false);
    expect(press('b')).toBe(false);
    const editor = focusedEditor('<p>x</p>', 1);
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<p>x</p>');
    editor.destroy();
  });

  it('lets the held keys go on a press elsewhere', () => {
    holdKeys();
    press('a');
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    expect(press('b')).toBe(false);
    const editor = focusedEditor('<p>x</p>', 1);
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<p>x</p>');
    editor.destroy();
  });

  it('lets the held keys go when no editor comes in time', () => {
    vi.useFakeTimers();
    holdKeys();
    press('a');
    vi.advanceTimersByTime(HOLD_KEYS_MS);
    expect(press('b')).toBe(false);
  });

  it('a second press or focus on the way to the editor (a lite card drawn whole) keeps what was held', () => {
    holdKeys();
    press('a');
    holdKeys();
    press('b');
    const editor = focusedEditor('<p>c</p>', 1);
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<p>abc</p>');
    editor.destroy();
  });

  it('types nothing into an editor without the focus, and stops holding', () => {
    holdKeys();
    press('a');
    const editor = focusedEditor('<p>x</p>', 1);
    editor.view.dom.blur();
    releaseKeys(editor);
    expect(editor.getHTML()).toBe('<p>x</p>');
    expect(press('b')).toBe(false);
    editor.destroy();
  });
});

describe('the static view', () => {
  const def = assetTypeDef('cmsRichTextAsset')!.fields.find((f) => f.key === 'text')!;

  it('holds the keys from the press that makes it the editor, unless it is read-only (no editor comes)', () => {
    const onActivate = vi.fn();
    const { rerender } = render(<RichTextPreview def={def} value="<p>x</p>" isReadOnly onActivate={onActivate} />);
    fireEvent.mouseDown(screen.getByRole('textbox', { name: 'Text' }), { button: 0 });
    expect(onActivate).toHaveBeenCalledTimes(1);
    expect(press('a')).toBe(false);

    rerender(<RichTextPreview def={def} value="<p>x</p>" onActivate={onActivate} />);
    fireEvent.mouseDown(screen.getByRole('textbox', { name: 'Text' }), { button: 0 });
    expect(onActivate).toHaveBeenCalledTimes(2);
    expect(press('a')).toBe(true);
  });

  it('holds the keys from the focus that makes it the editor', () => {
    render(<RichTextPreview def={def} value="<p>x</p>" onActivate={() => {}} />);
    screen.getByRole('textbox', { name: 'Text' }).focus();
    expect(press('a')).toBe(true);
  });
});
