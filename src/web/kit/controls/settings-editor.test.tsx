import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import { renderControl } from '../../test/render-control';
import type { Focusable } from '../field-control';
import { SettingsEditor } from './settings-editor';

const FORMDATA: FieldDef = assetTypeDef('cmsCommentsFormAsset')!.fields.find((f) => f.key === 'formdata')!;
const STORED = '{"title":"Comments","moderated":true,"maxLength":500,"blocked":["spam","ads"],"note":null}';

const input = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const written = (value: string | null | undefined) => JSON.parse(value ?? 'null') as Record<string, unknown>;

describe('SettingsEditor', () => {
  it('shows each setting with its type and writes nothing on load', () => {
    const { onChange } = renderControl(SettingsEditor, FORMDATA, STORED);
    expect(input('Name of setting 1').value).toBe('title');
    expect(input('Value of setting 1').value).toBe('Comments');
    expect(screen.getByRole('switch', { name: 'Value of setting 2' })).toHaveProperty('checked', true);
    expect(input('Value of setting 3').value).toBe('500');
    expect(screen.getByText('["spam","ads"]')).toBeTruthy();
    expect(screen.getByText('List')).toBeTruthy();
    expect(screen.getByText('Empty (null)')).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('edits values keeping their JSON types, and keeps lists and null as they are', async () => {
    const { user, last } = renderControl(SettingsEditor, FORMDATA, STORED);
    await user.clear(input('Value of setting 3'));
    await user.type(input('Value of setting 3'), '1000');
    await user.click(screen.getByRole('switch', { name: 'Value of setting 2' }));
    expect(written(last())).toEqual({
      title: 'Comments',
      moderated: false,
      maxLength: 1000,
      blocked: ['spam', 'ads'],
      note: null,
    });
    expect(checkFieldValue(FORMDATA, last())).toBeNull();
  });

  it('renames a setting in its place', async () => {
    const { user, last } = renderControl(SettingsEditor, FORMDATA, STORED);
    await user.clear(input('Name of setting 1'));
    await user.type(input('Name of setting 1'), 'heading');
    expect(Object.keys(written(last()))).toEqual(['heading', 'moderated', 'maxLength', 'blocked', 'note']);
  });

  it('says when a number is not one, and writes nothing until it is', async () => {
    const { user, last } = renderControl(SettingsEditor, FORMDATA, STORED);
    await user.clear(input('Value of setting 3'));
    await user.type(input('Value of setting 3'), '12');
    expect(written(last()).maxLength).toBe(12);
    await user.type(input('Value of setting 3'), 'a');
    expect(screen.getByText('Write a number, like 10 or 2.5.')).toBeTruthy();
    expect(screen.getByText(/keeps its last complete settings/)).toBeTruthy();
    expect(written(last()).maxLength).toBe(12);
    await user.type(input('Value of setting 3'), '{Backspace}.5');
    expect(written(last()).maxLength).toBe(12.5);
    expect(screen.queryByText(/Write a number/)).toBeNull();
  });

  it('changes a setting type, carrying the value over', async () => {
    const { user, last } = renderControl(SettingsEditor, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: /Type of setting 3/ }));
    await user.click(await screen.findByRole('option', { name: 'Text' }));
    expect(written(last()).maxLength).toBe('500');
    await user.click(screen.getByRole('button', { name: /Type of setting 1/ }));
    await user.click(await screen.findByRole('option', { name: 'True/false' }));
    expect(written(last()).title).toBe(false);
    expect(screen.getByRole('switch', { name: 'Value of setting 1' })).toBeTruthy();
  });

  it('adds a setting: focus goes to its name, nothing is written until it has one, a taken name is refused', async () => {
    const { user, last, onChange } = renderControl(SettingsEditor, FORMDATA, null);
    await user.click(screen.getByRole('button', { name: 'Add setting' }));
    expect(document.activeElement).toBe(input('Name of setting 1'));
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('closed');
    await user.type(input('Value of setting 1'), 'no');
    expect(last()).toBe('{"closed":"no"}');
    await user.click(screen.getByRole('button', { name: 'Add setting' }));
    await user.keyboard('closed');
    expect(screen.getByText('Another setting is called “closed”.')).toBeTruthy();
    // Written as typed up to the last name that could be written; the message says the field keeps it.
    expect(last()).toBe('{"closed":"no","close":""}');
    expect(screen.getByText(/keeps its last complete settings/)).toBeTruthy();
    await user.keyboard('2');
    expect(last()).toBe('{"closed":"no","closed2":""}');
  });

  it('removes a setting and moves the focus to the next one', async () => {
    const { user, last } = renderControl(SettingsEditor, FORMDATA, STORED);
    await user.click(screen.getByRole('button', { name: 'Remove “moderated”' }));
    expect(Object.keys(written(last()))).toEqual(['title', 'maxLength', 'blocked', 'note']);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Remove “maxLength”' }));
  });

  it('keeps a stored value it cannot read and replaces it only on "Start over"', async () => {
    const { user, last, onChange } = renderControl(SettingsEditor, FORMDATA, '["not","an","object"]');
    expect(screen.getByRole('alert').textContent).toContain('These settings cannot be edited here');
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Start over' }));
    expect(last()).toBe('{}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add setting' }));
  });

  it('is read only when asked', () => {
    renderControl(SettingsEditor, FORMDATA, STORED, { isReadOnly: true });
    expect(screen.queryByRole('button', { name: /Remove|Add setting/ })).toBeNull();
    expect(input('Name of setting 1').readOnly).toBe(true);
    expect(input('Value of setting 1').readOnly).toBe(true);
  });

  it('hands out a focus handle reaching the first name', () => {
    let handle: Focusable | null = null;
    renderControl(SettingsEditor, FORMDATA, STORED, { focusRef: (h) => (handle = h) });
    handle!.focus();
    expect(document.activeElement).toBe(input('Name of setting 1'));
  });

  it('after a failed save says what every new setting lacks, not only the ones the user left', async () => {
    function Host({ error }: { error?: string }) {
      const [value, setValue] = useState<string | null>(STORED);
      return <SettingsEditor def={FORMDATA} value={value} onChange={setValue} errorMessage={error} />;
    }
    const user = userEvent.setup();
    const view = render(<Host />);
    await user.click(screen.getByRole('button', { name: 'Add setting' }));
    await user.click(screen.getByRole('button', { name: 'Add setting' }));
    // At most the one the user left says so (the other still has the focus).
    expect(screen.queryAllByText('Give the setting a name.').length).toBeLessThan(2);
    view.rerender(<Host error="Could not save the settings." />);
    expect(screen.getAllByText('Give the setting a name.')).toHaveLength(2);
  });
});
