import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { assetTypeDef, type FieldDef } from '../../../../shared/registry';
import { createWebApi } from '../../../lib/api';
import { createFakeFetch } from '../../../test/fake-api';
import { renderKitForm } from '../../../test/kit';

/*
 * The rich text control inside the kit's real form: what the server holds is the value until the user edits.
 * tiptap writes much stored HTML differently (<b> as <strong>, text wrapped in paragraphs, attributes it keeps
 * reordered), and some it cannot hold at all: neither may count as a change when nobody typed.
 */

const def: FieldDef = assetTypeDef('cmsRichTextAsset')!.fields.find((f) => f.key === 'text')!;
const api = () => createWebApi({ fetch: createFakeFetch({}).fetch });

/** Held by the visual editor, written differently by it. */
const WRITTEN_DIFFERENTLY: [string, string][] = [
  ['a trailing line break', '<p>Hello<br></p>'],
  ['b, i and strike', '<p><b>bold</b> and <i>italic</i> and <strike>gone</strike></p>'],
  ['text outside a paragraph', 'Just text'],
  ['list items without paragraphs', '<ul><li>One</li><li>Two</li></ul>'],
  ['a table without tbody', '<table><tr><th>Day</th></tr><tr><td>Mon</td></tr></table>'],
  ['whitespace and entities', '<h2>  Spaced   title  </h2>\n\n<p>Fish &amp; chips&nbsp;&mdash;</p>'],
  ['untidy class and style', '<p style="color:red;;" class=" a  b ">Styled</p><p><span>plain</span></p>'],
  ['an empty value', ''],
];

/** Not held by the visual editor: shown in the HTML view, kept as stored. */
const NOT_HELD: [string, string][] = [
  ['a div', '<div>text in a div</div>'],
  ['an image with onerror', '<p>x<img src="/a.png" onerror="alert(1)"></p>'],
  ['a script', '<script>alert(1)</script><p>after</p>'],
  ['an unknown attribute and a comment', '<p foo="bar">x</p><!-- note -->'],
  ['a link with hreflang and onclick', '<p><a href="/about" hreflang="fr" onclick="steal()">link</a></p>'],
];

/** tiptap emits `create` on a timer after it mounts: give it that, and a little more. */
const settle = () => act(() => new Promise((r) => setTimeout(r, 30)));

async function openField(stored: string) {
  const user = userEvent.setup();
  const view = renderKitForm(api(), [def], { text: stored });
  await screen.findByRole('toolbar', { name: 'Formatting of Text' }, { timeout: 5000 });
  await settle();
  return { ...view, user };
}

describe('the rich text control on open', () => {
  it.each(WRITTEN_DIFFERENTLY)('%s: shown in the visual editor, and no change until edited', async (_name, stored) => {
    const { controller, user } = await openField(stored);
    expect(screen.getByRole('button', { name: 'HTML view' }).getAttribute('aria-pressed')).toBe('false');
    // Into the text and out again, typing nothing.
    await user.click(screen.getByRole('textbox', { name: 'Text' }));
    await user.tab();
    await settle();
    expect(controller().isDirty).toBe(false);
    expect(controller().changes()).toEqual({});
    expect(controller().form.getValues().text).toBe(stored);
  });

  it.each(NOT_HELD)('%s: opened in the HTML view, kept as stored, no change', async (_name, stored) => {
    const { controller } = await openField(stored);
    await screen.findByText(/This text contains markup the visual editor cannot show/);
    expect(screen.getByRole('button', { name: 'HTML view' }).getAttribute('aria-pressed')).toBe('true');
    // The HTML view shows the stored HTML itself, not what the visual editor made of it.
    await waitFor(() => expect(document.querySelector('.cm-content')?.textContent).toBe(stored.replace(/\n/g, '')));
    await settle();
    expect(controller().isDirty).toBe(false);
    expect(controller().changes()).toEqual({});
    expect(controller().form.getValues().text).toBe(stored);
  });

  it('reports an edit, written the editor’s way; undone, the stored HTML is the value again', async () => {
    const stored = '<p><b>bold</b> text</p>';
    const { controller, user } = await openField(stored);
    const box = screen.getByRole('textbox', { name: 'Text' });
    await user.type(box, '!');
    // jsdom puts the cursor at the start of the text.
    await waitFor(() => expect(controller().changes()).toEqual({ text: '<p><strong>!bold</strong> text</p>' }));
    expect(controller().isDirty).toBe(true);

    await user.keyboard('{Control>}z{/Control}');
    await waitFor(() => expect(controller().isDirty).toBe(false));
    expect(controller().changes()).toEqual({});
    expect(controller().form.getValues().text).toBe(stored);
  });
});
