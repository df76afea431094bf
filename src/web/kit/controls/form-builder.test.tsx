import { createEvent, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import { renderControl } from '../../test/render-control';
import type { Focusable } from '../field-control';
import { checkFormBuilderValue, FormBuilderData } from './form-builder-data';
import { FormBuilder } from './form-builder';

const FORMDATA: FieldDef = assetTypeDef('cmsFormAsset')!.fields.find((f) => f.key === 'formdata')!;

const STORED = JSON.stringify({
  config: { submitLabel: 'Send', redirect: '/thanks' },
  fields: [
    { type: 'text', name: 'full_name', label: 'Full name', required: true, maxLength: 80 },
    { type: 'date', name: 'born', label: 'Born' },
    { type: 'select', name: 'topic', label: 'Topic', required: false, options: ['Sales', 'Support'] },
  ],
});

const written = (value: string | null | undefined) =>
  JSON.parse(value ?? 'null') as { config: unknown; fields: Record<string, unknown>[] };
const cardTitles = () =>
  screen
    .getAllByRole('listitem')
    .filter((li) => li.classList.contains('builder-card'))
    .map((li) => li.querySelector('.builder-card__title')?.textContent);

describe('FormBuilder', () => {
  it('shows the stored fields, the one it cannot edit included, and writes nothing on load', () => {
    const { onChange } = renderControl(FormBuilder, FORMDATA, STORED);
    expect(cardTitles()).toEqual(['Full name', 'Born', 'Topic']);
    expect(screen.getByText('Not editable here; kept as it is')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Fields (3)' })).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('adds a field from the menu with the keyboard, names it from its label, and writes a valid form', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, STORED);
    screen.getByRole('button', { name: /Add field/ }).focus();
    await user.keyboard('{Enter}');
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toHaveLength(7);
    await user.keyboard('{ArrowDown}{Enter}'); // E-mail
    const label = screen.getByRole('textbox', { name: 'Label' });
    expect(document.activeElement).toBe(label);
    await user.keyboard('Your e-mail');
    expect((screen.getByRole('textbox', { name: 'Name' }) as HTMLInputElement).value).toBe('your_e_mail');
    await user.click(screen.getByRole('checkbox', { name: 'Visitors must answer' }));

    const out = written(last());
    expect(out.config).toEqual({ submitLabel: 'Send', redirect: '/thanks' });
    expect(out.fields[0]).toEqual({
      type: 'text',
      name: 'full_name',
      label: 'Full name',
      required: true,
      maxLength: 80,
    });
    expect(out.fields[1]).toEqual({ type: 'date', name: 'born', label: 'Born' });
    expect(out.fields[3]).toEqual({ type: 'email', name: 'your_e_mail', label: 'Your e-mail', required: true });
    expect(checkFieldValue(FORMDATA, last())).toBeNull();
    expect(checkFormBuilderValue(last()!)).toBeNull();
    expect(FormBuilderData.safeParse(out).success).toBe(true);
  });

  it('checks names as they are typed: taken, and not an identifier', async () => {
    const { user } = renderControl(FormBuilder, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: /Full name/, expanded: false }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'topic');
    expect(screen.getByText('Another field is also called “topic”.')).toBeTruthy();
    await user.clear(name);
    await user.type(name, 'born');
    expect(screen.getByText('Another field is also called “born”.')).toBeTruthy(); // the entry it cannot edit counts
    await user.clear(name);
    await user.type(name, '2nd name');
    expect(screen.getByText('Use letters, digits and _ only, and do not start with a digit.')).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await user.clear(name);
    await user.type(name, 'name2');
    expect(screen.queryByText(/also called|do not start with a digit/)).toBeNull();
  });

  it('says a new field needs a label once the user leaves it empty', async () => {
    const { user } = renderControl(FormBuilder, FORMDATA, null);
    await user.click(screen.getByRole('button', { name: /Add field/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Paragraph/ }));
    expect(screen.queryByText('Give the field a label.')).toBeNull();
    await user.tab();
    expect(screen.getByText('Give the field a label.')).toBeTruthy();
  });

  it('builds a drop-down with options: Enter adds the next, empty and repeated ones are flagged', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, null);
    await user.click(screen.getByRole('button', { name: /Add field/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Drop-down/ }));
    await user.keyboard('Size');
    await user.click(screen.getByRole('textbox', { name: 'Option 1' }));
    await user.keyboard('Small{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Option 2' }));
    await user.keyboard('small');
    expect(screen.getByText('Same as option 1.')).toBeTruthy();
    await user.clear(screen.getByRole('textbox', { name: 'Option 2' }));
    await user.keyboard('Large');
    expect(screen.queryByText(/Same as/)).toBeNull();
    expect(written(last()).fields).toEqual([
      { type: 'select', name: 'size', label: 'Size', required: false, options: ['Small', 'Large'] },
    ]);
    expect(checkFieldValue(FORMDATA, last())).toBeNull();
    expect(FormBuilderData.safeParse(written(last())).success).toBe(true);
  });

  it('reorders options and removes them from the keyboard', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: /Topic/, expanded: false }));
    screen.getByRole('button', { name: 'Move option “Support” up' }).focus();
    await user.keyboard('{Enter}');
    expect(written(last()).fields[2]!.options).toEqual(['Support', 'Sales']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move option “Support” down' }));
    await user.click(screen.getByRole('button', { name: 'Remove option “Sales”' }));
    await user.click(screen.getByRole('button', { name: 'Remove option “Support”' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add option' }));
  });

  it('reorders fields from the keyboard, keeping the focus on the moved field', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, STORED);
    screen.getByRole('button', { name: 'Move “Topic” up' }).focus();
    await user.keyboard('{Enter}');
    expect(cardTitles()).toEqual(['Full name', 'Topic', 'Born']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move “Topic” up' }));
    await user.keyboard('{Enter}');
    expect(cardTitles()).toEqual(['Topic', 'Full name', 'Born']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Move “Topic” down' }));
    expect(screen.getByText('“Topic” moved to position 1 of 3.')).toBeTruthy();
    expect(written(last()).fields.map((f) => f.name)).toEqual(['topic', 'full_name', 'born']);
    // The entry it cannot edit moves too, and stays as it was.
    screen.getByRole('button', { name: 'Move field 3 up' }).focus();
    await user.keyboard('{Enter}');
    expect(written(last()).fields[1]).toEqual({ type: 'date', name: 'born', label: 'Born' });
  });

  it('removes a field and moves the focus to the next one', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: 'Remove “Full name”' }));
    expect(cardTitles()).toEqual(['Born', 'Topic']);
    expect(document.activeElement?.textContent).toContain('Born');
    expect(written(last()).fields.map((f) => f.name)).toEqual(['born', 'topic']);
  });

  it('changes a field type, keeping the options for when it becomes a list again', async () => {
    const { user, last } = renderControl(FormBuilder, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: /Topic/, expanded: false }));
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(await screen.findByRole('option', { name: /Short text/ }));
    expect(written(last()).fields[2]).toEqual({ type: 'text', name: 'topic', label: 'Topic', required: false });
    await user.click(screen.getByRole('button', { name: /Type/ }));
    await user.click(await screen.findByRole('option', { name: /Multiple choice/ }));
    expect(written(last()).fields[2]!.options).toEqual(['Sales', 'Support']);
  });

  it('previews the form as visitors will see it', async () => {
    const { user } = renderControl(FormBuilder, FORMDATA, STORED);
    await user.click(screen.getByRole('tab', { name: 'Preview' }));
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getByRole('textbox', { name: /Full name/ })).toBeTruthy();
    const topic = within(panel).getByRole('combobox', { name: 'Topic' });
    expect(
      within(topic)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose…', 'Sales', 'Support']);
    expect(within(panel).getByText(/Born: a field of type “date”/)).toBeTruthy();
  });

  it('opens stored fields that have problems, and shows them', () => {
    const stored = JSON.stringify({
      config: {},
      fields: [
        { type: 'radio', name: 'a', label: 'Pick', required: false, options: [] },
        { type: 'text', name: 'b', label: 'Fine', required: false },
      ],
    });
    renderControl(FormBuilder, FORMDATA, stored);
    expect(screen.getByRole('button', { name: /^Fine/ }).getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps a stored value it cannot read and replaces it only on "Start over"', async () => {
    const broken = '{"config":{},"fields":{"name":"x"}}';
    const { user, last, onChange } = renderControl(FormBuilder, FORMDATA, broken);
    expect(screen.getByRole('alert').textContent).toContain('This form cannot be edited here');
    expect(screen.getByText(broken)).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(last()).toBe('{"config":{},"fields":[]}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Add field/ }));
  });

  it('is read only when asked: cards open, nothing to change', async () => {
    const { user } = renderControl(FormBuilder, FORMDATA, STORED, { isReadOnly: true });
    expect(screen.queryByRole('button', { name: /Move|Remove|Add field/ })).toBeNull();
    await user.click(screen.getByRole('button', { name: /Topic/ }));
    expect(screen.getByRole('textbox', { name: 'Label' }).hasAttribute('readonly')).toBe(true);
    expect(screen.getByRole('textbox', { name: 'Option 1' }).hasAttribute('readonly')).toBe(true);
  });

  it('hands out a focus handle reaching the first field, or "Add field" when there is none', () => {
    let handle: Focusable | null = null;
    const { unmount } = renderControl(FormBuilder, FORMDATA, STORED, { focusRef: (h) => (handle = h) });
    handle!.focus();
    expect(document.activeElement?.textContent).toContain('Full name');
    unmount();
    expect(handle).toBeNull();
    renderControl(FormBuilder, FORMDATA, null, { focusRef: (h) => (handle = h) });
    handle!.focus();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: /Add field/ }));
  });

  it('reorders fields by dragging their grip', () => {
    const { container, last } = renderControl(FormBuilder, FORMDATA, STORED);
    const grips = container.querySelectorAll('.drag-grip');
    const cards = container.querySelectorAll('li.builder-card');
    const dataTransfer = { setData: () => undefined, setDragImage: () => undefined, effectAllowed: '', dropEffect: '' };
    /** A drag event at height `y` (jsdom's drag events carry no coordinates; its boxes are empty, middle 0). */
    const at = (make: typeof createEvent.dragOver, el: Element, y: number) => {
      const event = make(el, { dataTransfer });
      Object.defineProperty(event, 'clientY', { value: y });
      return event;
    };
    fireEvent.dragStart(grips[2]!, { dataTransfer });
    fireEvent(cards[0]!, at(createEvent.dragOver, cards[0]!, -1)); // above the middle of the first card
    fireEvent(cards[0]!, at(createEvent.drop, cards[0]!, -1));
    expect(cardTitles()).toEqual(['Topic', 'Full name', 'Born']);
    expect(written(last()).fields.map((f) => f.name)).toEqual(['topic', 'full_name', 'born']);

    fireEvent.dragStart(container.querySelectorAll('.drag-grip')[0]!, { dataTransfer });
    const [, , lastCard] = container.querySelectorAll('li.builder-card');
    fireEvent(lastCard!, at(createEvent.dragOver, lastCard!, 1)); // below the middle of the last card
    fireEvent(lastCard!, at(createEvent.drop, lastCard!, 1));
    expect(cardTitles()).toEqual(['Full name', 'Born', 'Topic']);
  });

  it('after a failed save shows every problem on an open card, untouched new fields included', async () => {
    function Host({ error }: { error?: string }) {
      const [value, setValue] = useState<string | null>(null);
      return <FormBuilder def={FORMDATA} value={value} onChange={setValue} errorMessage={error} />;
    }
    const user = userEvent.setup();
    const view = render(<Host />);
    for (const type of [/Paragraph/, /Drop-down/]) {
      await user.click(screen.getByRole('button', { name: /Add field/ }));
      await user.click(await screen.findByRole('menuitem', { name: type }));
    }
    // Closed by hand: a closed card shows only that it needs attention.
    for (const card of screen.getAllByRole('button', { name: /^Untitled field/ })) await user.click(card);
    expect(screen.queryByText('Give the field a label.')).toBeNull();
    expect(screen.getAllByText('Needs attention')).toHaveLength(2);

    view.rerender(<Host error="Field 1: Give the field a label. (1 more field to fix)" />);
    expect(screen.getAllByText('Give the field a label.')).toHaveLength(2);
    for (const card of screen.getAllByRole('button', { name: /^Untitled field/ })) {
      expect(card.getAttribute('aria-expanded')).toBe('true');
    }
  });
});
