import { describe, expect, it } from 'vitest';
import { ASSET_TYPES, assetTypeDef, checkFieldValue, validateFields, WIDGET_TYPE_IDS, WIDGET_TYPES } from './index.js';

describe('registry', () => {
  it('describes each of the 27 widget types once, with an existing asset type or local fields', () => {
    expect(WIDGET_TYPE_IDS).toHaveLength(27);
    expect(new Set(WIDGET_TYPES.map((w) => w.type))).toEqual(new Set(WIDGET_TYPE_IDS));
    for (const w of WIDGET_TYPES) {
      if (w.assetType) expect(assetTypeDef(w.assetType), w.type).toBeDefined();
      else expect(w.localFields?.length, w.type).toBeGreaterThan(0);
    }
  });

  it('has the 20 non-binary asset types of the interface and 3 binary ones', () => {
    expect(ASSET_TYPES.filter((a) => !a.binary)).toHaveLength(20);
    expect(ASSET_TYPES.filter((a) => a.binary).map((a) => a.type)).toEqual([
      'cmsImageAsset',
      'cmsFileAsset',
      'cmsFlashAsset',
    ]);
    expect(assetTypeDef('cmsPageAutoList')!.fields.map((f) => f.key)).toEqual([
      'displaytitle',
      'site_path',
      'title_contains',
      'page_templates_list',
      'start_date',
      'end_date',
      'query',
      'enable_rss_feed',
      'feed_title',
      'feed_name',
      'feed_description',
    ]);
  });

  it('lists every type’s fields in the order a person fills them: the title first, a start before its end', () => {
    const forms = [
      ...ASSET_TYPES.map((a) => ({ name: a.type, fields: a.fields })),
      ...WIDGET_TYPES.flatMap((w) => (w.localFields ? [{ name: w.type, fields: w.localFields }] : [])),
    ];
    const before = (keys: string[], first: RegExp, then: RegExp) => {
      const a = keys.findIndex((k) => first.test(k));
      const b = keys.findIndex((k) => then.test(k));
      return a < 0 || b < 0 || a < b;
    };
    const slips: string[] = [];
    for (const { name, fields } of forms) {
      const keys = fields.map((f) => f.key);
      const title = fields.findIndex((f) => /^(Display title|Title|Form title)$/.test(f.label));
      if (title > 0) slips.push(`${name}: ${keys[title]} is not first`);
      if (!before(keys, /start/, /end_/)) slips.push(`${name}: an end before its start`);
      if (!before(keys, /published_after/, /published_before/)) slips.push(`${name}: before before after`);
      if (!before(keys, /email_label/, /password_label/)) slips.push(`${name}: password before e-mail`);
      if (!before(keys, /^password_label/, /confirm_password_label/)) slips.push(`${name}: confirm before password`);
      if (
        !before(keys, /title_contains/, /^query(_string)?$/) ||
        !before(keys, /site_path|library_path/, /title_contains/)
      ) {
        slips.push(`${name}: filters out of order (where, then title, then query)`);
      }
      const last = fields[fields.length - 1]!;
      if (fields.some((f) => f.key === 'renderedform') && last.key !== 'renderedform') {
        slips.push(`${name}: the rendered form is not last`);
      }
    }
    expect(slips).toEqual([]);
  });

  it('checks formats', () => {
    const date = { key: 'd', label: 'd', format: 'date', editor: 'date' } as const;
    expect(checkFieldValue(date, '02/29/2024')).toBeNull();
    expect(checkFieldValue(date, '02/30/2024')).toMatch(/MM\/DD\/YYYY/);
    expect(checkFieldValue(date, '2024-02-01')).toMatch(/MM\/DD\/YYYY/);
    expect(checkFieldValue(date, null)).toBeNull();
    const dt = { key: 'd', label: 'd', format: 'datetime', editor: 'datetime' } as const;
    expect(checkFieldValue(dt, '2024-05-01 13:30:00.0')).toBeNull();
    expect(checkFieldValue(dt, '2024-05-01T13:30:00')).not.toBeNull();
    const n = { key: 'n', label: 'n', format: 'number', editor: 'number-as-string' } as const;
    expect(checkFieldValue(n, '10')).toBeNull();
    expect(checkFieldValue(n, 'ten')).not.toBeNull();
    expect(checkFieldValue(n, 10)).toMatch(/string/);
  });

  it('validates JSON fields against their shape, unknown keys and required fields', () => {
    const poll = assetTypeDef('cmsPollAsset')!;
    const good = JSON.stringify({ question: 'Tea?', answerType: 'single', answerChoices: ['yes', 'no'] });
    expect(validateFields(poll.fields, { pollUniqueName: 'p', pollQuestion: good }, true)).toEqual([]);
    expect(validateFields(poll.fields, { pollUniqueName: 'p', pollQuestion: '{"question":1}' }, true)[0]!.key).toBe(
      'pollQuestion',
    );
    expect(validateFields(poll.fields, { pollUniqueName: 'p', pollQuestion: '{not json' }, true)[0]!.message).toMatch(
      /JSON/,
    );
    expect(validateFields(poll.fields, { nope: 'x' }, false)).toEqual([
      { key: 'nope', message: 'is not a field of this type' },
    ]);
    expect(
      validateFields(poll.fields, {}, true)
        .map((p) => p.key)
        .sort(),
    ).toEqual(['pollQuestion', 'pollUniqueName']);
    expect(validateFields(poll.fields, {}, false)).toEqual([]);
  });
});
