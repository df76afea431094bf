import { describe, expect, it } from 'vitest';
import { assetTypeDef, checkFieldValue, type FieldDef } from '../../../shared/registry';
import {
  addField,
  checkFormBuilderValue,
  FormBuilderData,
  FormField,
  formBuilderProblems,
  moveEntry,
  nameFromLabel,
  parseFormData,
  removeEntry,
  serialiseFormData,
  updateField,
  type FormBuilderModel,
} from './form-builder-data';

const FORMDATA: FieldDef = assetTypeDef('cmsFormAsset')!.fields.find((f) => f.key === 'formdata')!;

const STORED = JSON.stringify({
  config: { submitLabel: 'Send', notify: ['ops@example.com'] },
  fields: [
    { type: 'text', name: 'full_name', label: 'Full name', required: true, placeholder: 'Ada Lovelace' },
    { type: 'date', name: 'born', label: 'Born' },
    { type: 'select', name: 'topic', label: 'Topic', required: false, options: ['Sales', 'Support'] },
  ],
  version: 3,
});

function model(value: string | null = STORED): FormBuilderModel {
  const parsed = parseFormData(value);
  if (!parsed.ok) throw new Error(parsed.reason);
  return parsed.model;
}

const fieldsOf = (json: string) => (JSON.parse(json) as { fields: Record<string, unknown>[] }).fields;

describe('form builder data', () => {
  it('writes back a stored value untouched as the identical string', () => {
    expect(serialiseFormData(model())).toBe(STORED);
  });

  it('reads fields it knows as editable and keeps the others as they are', () => {
    const m = model();
    expect(m.entries.map((e) => e.kind)).toEqual(['field', 'other', 'field']);
    const topic = m.entries[2]!;
    expect(topic.kind === 'field' && topic.field.options.map((o) => o.text)).toEqual(['Sales', 'Support']);
  });

  it('keeps config, other root keys, unknown keys of an edited field and unknown entries when editing', () => {
    const m = model();
    const out = serialiseFormData(updateField(m, m.entries[0]!.id, { label: 'Your name' }));
    const json = JSON.parse(out);
    expect(json.config).toEqual({ submitLabel: 'Send', notify: ['ops@example.com'] });
    expect(json.version).toBe(3);
    expect(json.fields[0]).toEqual({
      type: 'text',
      name: 'full_name', // a stored field keeps its name when its label changes
      label: 'Your name',
      required: true,
      placeholder: 'Ada Lovelace',
    });
    expect(json.fields[1]).toEqual({ type: 'date', name: 'born', label: 'Born' });
    expect(Object.keys(json)).toEqual(['config', 'fields', 'version']);
  });

  it('names a new field from its label until the user types a name', () => {
    const added = addField(model(), 'email');
    const id = added.id;
    let m = added.model;
    m = updateField(m, id, { label: 'Your e-mail' });
    expect(fieldsOf(serialiseFormData(m))[3]).toEqual({
      type: 'email',
      name: 'your_e_mail',
      label: 'Your e-mail',
      required: false,
    });
    m = updateField(m, id, { name: 'mail' });
    m = updateField(m, id, { label: 'E-mail address' });
    expect(fieldsOf(serialiseFormData(m))[3]!.name).toBe('mail');
  });

  it('makes derived names unique and valid', () => {
    expect(nameFromLabel('Full name', new Set(['full_name']))).toBe('full_name_2');
    expect(nameFromLabel('2nd choice', new Set())).toBe('field_2nd_choice');
    expect(nameFromLabel('Café — été', new Set())).toBe('cafe_ete');
    expect(nameFromLabel('!!!', new Set())).toBe('field');
  });

  it('writes options for radio groups and selects only', () => {
    const added = addField(model(null), 'radio');
    const id = added.id;
    let m = added.model;
    const entry = m.entries[0]!;
    const options = entry.kind === 'field' ? entry.field.options : [];
    m = updateField(m, id, {
      label: 'Size',
      options: [
        { ...options[0]!, text: 'S' },
        { id: 'x', text: 'M' },
      ],
    });
    expect(fieldsOf(serialiseFormData(m))[0]!.options).toEqual(['S', 'M']);
    m = updateField(m, id, { type: 'text' });
    expect(fieldsOf(serialiseFormData(m))[0]).not.toHaveProperty('options');
    m = updateField(m, id, { type: 'select' });
    expect(fieldsOf(serialiseFormData(m))[0]!.options).toEqual(['S', 'M']);
  });

  it('reorders and removes entries, unknown ones included', () => {
    const m = model();
    const moved = moveEntry(m, m.entries[1]!.id, -1);
    expect(fieldsOf(serialiseFormData(moved)).map((f) => f.name)).toEqual(['born', 'full_name', 'topic']);
    const removed = removeEntry(m, m.entries[1]!.id);
    expect(fieldsOf(serialiseFormData(removed)).map((f) => f.name)).toEqual(['full_name', 'topic']);
  });

  it('finds the problems a person would trip over', () => {
    let m = model();
    let { model: withNew, id } = addField(m, 'select');
    m = updateField(withNew, id, { label: 'Topic', name: 'Topic' });
    const p = formBuilderProblems(m).get(id)!;
    expect(p.name).toBe('Another field is also called “Topic”.');
    expect(Object.values(p.option)).toEqual(['Write the option or remove it.']);
    m = updateField(m, id, { name: 'born' });
    expect(formBuilderProblems(m).get(id)!.name).toMatch(/also called/); // the unknown entry's name counts
    m = updateField(m, id, { name: '1st' });
    expect(formBuilderProblems(m).get(id)!.name).toMatch(/letters, digits and _/);
    ({ model: withNew, id } = addField(model(null), 'text'));
    expect(formBuilderProblems(withNew).get(id)!.label).toBe('Give the field a label.');
  });

  it('writes values the registry accepts and, once the problems are fixed, the documented shape', () => {
    const added = addField(model(), 'radio');
    const id = added.id;
    let m = added.model;
    const entry = m.entries.find((e) => e.id === id)!;
    const first = entry.kind === 'field' ? entry.field.options[0]! : { id: '', text: '' };
    m = updateField(m, id, {
      label: 'Contact me by',
      required: true,
      options: [
        { ...first, text: 'Phone' },
        { id: 'y', text: 'Mail' },
      ],
    });
    const out = serialiseFormData(m);
    expect(checkFieldValue(FORMDATA, out)).toBeNull();
    expect(formBuilderProblems(m).size).toBe(0);
    expect(checkFormBuilderValue(out)).toBeNull();
    expect(FormBuilderData.safeParse(JSON.parse(out)).success).toBe(true);
    expect(FormField.safeParse(fieldsOf(out)[3]).success).toBe(true);
  });

  it('checks a value for the form in one sentence', () => {
    const dup = JSON.stringify({
      config: {},
      fields: [
        { type: 'text', name: 'a', label: 'A', required: false },
        { type: 'email', name: 'a', label: 'Mail', required: false },
        { type: 'radio', name: 'r', label: 'R', required: false, options: [] },
      ],
    });
    expect(checkFormBuilderValue(dup)).toBe('Field “A”: Another field is also called “a”. (2 more fields to fix)');
    expect(FormBuilderData.safeParse(JSON.parse(dup)).success).toBe(false);
    expect(checkFormBuilderValue('{"fields": 1}')).toMatch(/no list of fields/);
    expect(checkFormBuilderValue(null)).toBeNull();
  });

  it('says why it cannot edit what is not a form', () => {
    for (const [value, reason] of [
      ['{"config":{}, "fields": [', /not valid JSON/],
      ['[1,2]', /not a JSON object/],
      ['{"config": [], "fields": []}', /"config"/],
    ] as const) {
      const parsed = parseFormData(value);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.reason).toMatch(reason);
    }
  });

  it('adds the config the server requires when the stored value has none, and only then', () => {
    const m = model('{"fields":[]}');
    expect(serialiseFormData(m)).toBe('{"config":{},"fields":[]}');
    expect(checkFieldValue(FORMDATA, serialiseFormData(model(null)))).toBeNull();
  });

  it('keeps an entry whose known keys hold something else (options as objects) as it is', () => {
    const stored = JSON.stringify({
      config: {},
      fields: [{ type: 'select', name: 's', label: 'S', options: [{ value: 1 }] }],
    });
    const m = model(stored);
    expect(m.entries[0]!.kind).toBe('other');
    expect(serialiseFormData(m)).toBe(stored);
  });
});
