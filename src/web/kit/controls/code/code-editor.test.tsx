import { undo } from '@codemirror/commands';
import { EditorView } from '@codemirror/view';
import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CodeEditor } from './code-editor';

/** The CodeMirror view inside the rendered editor. */
function viewOf(container: HTMLElement): EditorView {
  const view = EditorView.findFromDOM(container.querySelector<HTMLElement>('.cm-editor')!);
  if (!view) throw new Error('no CodeMirror view');
  return view;
}

/** An edit as the user's keys make it (not marked as a value from outside). */
function type(view: EditorView, at: number, text: string) {
  view.dispatch({ changes: { from: at, insert: text }, userEvent: 'input.type' });
}

/** Keys typed one by one the way CodeMirror handles typing: its input handlers first, then the plain insert. */
function typeKeys(view: EditorView, keys: string) {
  for (const ch of keys) {
    const { from, to } = view.state.selection.main;
    const insert = () =>
      view.state.update({
        changes: { from, to, insert: ch },
        selection: { anchor: from + 1 },
        userEvent: 'input.type',
      });
    if (!view.state.facet(EditorView.inputHandler).some((handle) => handle(view, from, to, ch, insert))) {
      view.dispatch(insert());
    }
  }
}

describe('CodeEditor', () => {
  it('keeps a value written with CRLF as it was: an edit changes the edit, not every line break', () => {
    const onChange = vi.fn();
    const stored = '<p>one</p>\r\n<p>two</p>\r\n';
    const { container } = render(<CodeEditor value={stored} onChange={onChange} language="html" labelledBy="l" />);
    const view = viewOf(container);
    expect(view.state.doc.lines).toBe(3);
    type(view, 0, '<!-- x -->');
    expect(onChange).toHaveBeenLastCalledWith(`<!-- x -->${stored}`);
    // A new line typed in it is a CRLF too.
    type(view, view.state.doc.line(2).to, view.state.lineBreak);
    expect(onChange).toHaveBeenLastCalledWith('<!-- x --><p>one</p>\r\n<p>two</p>\r\n\r\n');
  });

  it('splits an LF value that replaces a CRLF one into its lines', () => {
    const onChange = vi.fn();
    const { container, rerender } = render(
      <CodeEditor value={'a\r\nb'} onChange={onChange} language="plain" labelledBy="l" />,
    );
    rerender(<CodeEditor value={'x\ny\nz'} onChange={onChange} language="plain" labelledBy="l" />);
    const view = viewOf(container);
    expect(view.state.doc.lines).toBe(3);
    expect(view.state.sliceDoc()).toBe('x\ny\nz');
    // A value from outside is not reported back as an edit.
    expect(onChange).not.toHaveBeenCalled();
  });

  it('stays the same editor, with its history, when the field turns invalid or read-only', () => {
    const onChange = vi.fn();
    const props = { onChange, language: 'html' as const, labelledBy: 'label' };
    const { container, rerender } = render(<CodeEditor value="<p>kept</p>" {...props} />);
    const view = viewOf(container);
    type(view, 0, 'typed ');
    rerender(<CodeEditor value="typed <p>kept</p>" {...props} isInvalid describedBy="error" />);
    expect(viewOf(container)).toBe(view);
    const content = container.querySelector('.cm-content')!;
    expect(content.getAttribute('aria-invalid')).toBe('true');
    expect(content.getAttribute('aria-describedby')).toBe('error');
    // Undo still has the edit made before the field turned invalid.
    expect(undo(view)).toBe(true);
    expect(onChange).toHaveBeenLastCalledWith('<p>kept</p>');

    rerender(<CodeEditor value="<p>kept</p>" {...props} isReadOnly />);
    expect(viewOf(container)).toBe(view);
    expect(view.state.readOnly).toBe(true);
    expect(content.getAttribute('aria-invalid')).toBeNull();
  });

  it('closes an element as it is opened, and a close tag typed by hand types over that one instead of doubling it', () => {
    const onChange = vi.fn();
    const { container } = render(<CodeEditor value="" onChange={onChange} language="html" labelledBy="l" />);
    const view = viewOf(container);
    typeKeys(view, '<p>');
    expect(view.state.sliceDoc()).toBe('<p></p>');
    typeKeys(view, 'Hello <b>there</b> and </p>');
    expect(view.state.sliceDoc()).toBe('<p>Hello <b>there</b> and </p>');
    expect(view.state.selection.main.head).toBe(view.state.doc.length);
    // Typing on after it starts anew.
    typeKeys(view, '<em>x');
    expect(view.state.sliceDoc()).toBe('<p>Hello <b>there</b> and </p><em>x</em>');
    expect(onChange).toHaveBeenLastCalledWith(view.state.sliceDoc());
  });
});
