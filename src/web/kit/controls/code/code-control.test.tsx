import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FieldDef } from '../../../../shared/registry';
import { DeferRichText } from '../../defer-rich-text';
import { CodeControl } from './code-control';

const def: FieldDef = { key: 'html', label: 'HTML', format: 'html', editor: 'code' };

function renderField(value: string | null, defer: boolean) {
  const onChange = vi.fn();
  const view = render(
    <DeferRichText.Provider value={defer}>
      <CodeControl def={def} value={value} onChange={onChange} />
    </DeferRichText.Provider>,
  );
  return { ...view, onChange };
}

describe('CodeControl', () => {
  it('in the page editor, shows a value as static text until focused, then is the editor with the focus', async () => {
    const { container } = renderField('<p>one</p>\n<p>two</p>', true);
    const box = screen.getByRole('textbox', { name: 'HTML' });
    expect(box.textContent).toBe('<p>one</p><p>two</p>');
    expect(container.querySelectorAll('.code-static__line')).toHaveLength(2);
    expect(container.querySelector('.cm-editor')).toBeNull();
    // Nothing is framed for the preview until its tab is shown.
    expect(container.querySelector('iframe')).toBeNull();

    box.focus();
    await waitFor(() => expect(container.querySelector('.cm-editor')).not.toBeNull());
    await waitFor(() => expect(container.querySelector('.cm-content')!.contains(document.activeElement)).toBe(true));
    expect(container.querySelector('[data-code-static]')).toBeNull();
  });

  it('a press on the static text makes the editor there', async () => {
    const { container } = renderField('<p>one</p>', true);
    fireEvent.mouseDown(screen.getByRole('textbox', { name: 'HTML' }), { button: 0, clientX: 5, clientY: 5 });
    await waitFor(() => expect(container.querySelector('.cm-editor')).not.toBeNull());
  });

  it('elsewhere, or with nothing written yet, is the editor at once', async () => {
    for (const [value, defer] of [
      ['<p>one</p>', false],
      [null, true],
    ] as const) {
      const { container, unmount } = renderField(value, defer);
      expect(container.querySelector('[data-code-static]')).toBeNull();
      await waitFor(() => expect(container.querySelector('.cm-editor')).not.toBeNull());
      unmount();
    }
  });

  it('the preview tab frames the HTML when shown', async () => {
    const { container } = renderField('<p>one</p>', true);
    fireEvent.click(screen.getByRole('tab', { name: 'Preview' }));
    expect(container.querySelector('iframe')).not.toBeNull();
  });
});
