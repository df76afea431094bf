import { describe, expect, it } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import {
  changeKind,
  checkSettingsValue,
  newSetting,
  parseSettings,
  serialiseSettings,
  settingsProblems,
  type SettingsModel,
} from './settings-editor-data';

const COMMENTS_FORMDATA: FieldDef = assetTypeDef('cmsCommentsFormAsset')!.fields.find((f) => f.key === 'formdata')!;

const STORED =
  '{"title":"Comments","moderated":true,"maxLength":500,"ratio":0.25,"blocked":["spam"],"theme":{"dark":true},"note":null}';

function model(value: string | null = STORED): SettingsModel {
  const parsed = parseSettings(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.model;
}

const edit = (m: SettingsModel, i: number, patch: Partial<SettingsModel['rows'][number]>): SettingsModel => ({
  rows: m.rows.map((r, j) => (j === i ? { ...r, ...patch } : r)),
});

describe('settings data', () => {
  it('writes back a stored value untouched as the identical string', () => {
    expect(serialiseSettings(model())).toBe(STORED);
  });

  it('reads each value with its JSON type; lists, objects and null are kept as they are', () => {
    expect(model().rows.map((r) => r.kind)).toEqual(['text', 'boolean', 'number', 'number', 'json', 'json', 'json']);
  });

  it('writes values with their JSON type', () => {
    let m = model();
    m = edit(m, 0, { text: 'Your thoughts', isEdited: true });
    m = edit(m, 1, { bool: false, isEdited: true });
    m = edit(m, 2, { text: '1000', isEdited: true });
    const json = JSON.parse(serialiseSettings(m)!);
    expect(json).toEqual({
      title: 'Your thoughts',
      moderated: false,
      maxLength: 1000,
      ratio: 0.25,
      blocked: ['spam'],
      theme: { dark: true },
      note: null,
    });
  });

  it('renames a setting in its place', () => {
    const out = serialiseSettings(edit(model(), 0, { name: 'heading' }))!;
    expect(Object.keys(JSON.parse(out))[0]).toBe('heading');
    expect(JSON.parse(out).heading).toBe('Comments');
  });

  it('carries a value over when its type changes', () => {
    const [title, moderated, maxLength] = model().rows;
    expect(changeKind(moderated!, 'text').text).toBe('true');
    expect(changeKind({ ...title!, text: 'TRUE' }, 'boolean').bool).toBe(true);
    const asText = changeKind(maxLength!, 'text');
    expect(JSON.parse(serialiseSettings({ rows: [asText] })!)).toEqual({ maxLength: '500' });
  });

  it('writes nothing while a name is missing or repeated or a number is not one, and says why', () => {
    const m = model();
    const unnamed = { rows: [...m.rows, newSetting()] };
    expect(serialiseSettings(unnamed)).toBeNull();
    expect([...settingsProblems(unnamed).values()]).toEqual([{ name: 'Give the setting a name.' }]);
    const repeated = edit(m, 1, { name: 'title' });
    expect(serialiseSettings(repeated)).toBeNull();
    expect(settingsProblems(repeated).get(m.rows[1]!.id)).toEqual({ name: 'Another setting is called “title”.' });
    const notANumber = edit(m, 2, { text: '12a', isEdited: true });
    expect(serialiseSettings(notANumber)).toBeNull();
    expect(settingsProblems(notANumber).get(m.rows[2]!.id)).toEqual({ value: 'Write a number, like 10 or 2.5.' });
  });

  it('tells names apart by case, as JSON does, and keeps a setting called __proto__', () => {
    const m = {
      rows: [
        { ...newSetting(), name: 'Title', text: 'a' },
        { ...newSetting(), name: 'title', text: 'b' },
      ],
    };
    expect(serialiseSettings(m)).toBe('{"Title":"a","title":"b"}');
    const proto = { rows: [{ ...newSetting(), name: '__proto__', text: 'x' }] };
    expect(serialiseSettings(proto)).toBe('{"__proto__":"x"}');
  });

  it('writes values the registry accepts', () => {
    for (const m of [model(), model(null), { rows: [{ ...newSetting(), name: 'a', text: 'b' }] }]) {
      expect(checkFieldValue(COMMENTS_FORMDATA, serialiseSettings(m))).toBeNull();
    }
    expect(serialiseSettings(model(null))).toBe('{}');
  });

  it('says why it cannot edit what is not an object', () => {
    expect(checkSettingsValue('[1]')).toMatch(/not a JSON object/);
    expect(checkSettingsValue('{')).toMatch(/not valid JSON/);
    expect(checkSettingsValue(STORED)).toBeNull();
  });
});
