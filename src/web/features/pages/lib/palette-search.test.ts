import { describe, expect, it } from 'vitest';
import { rankWidgetTypes, widgetTypeForAsset } from './palette-search';

const labels = (q: string) => rankWidgetTypes(q).map((w) => w.label);

describe('the palette search', () => {
  it('puts the widget named by what was typed first, before those that only mention it', () => {
    const image = labels('image');
    expect(image[0]).toBe('Image');
    expect(image.indexOf('Rich text')).toBeGreaterThan(image.indexOf('Image'));
    expect(labels('IMA')[0]).toBe('Image');
  });

  it('ranks a word of the label before a match in the description', () => {
    const text = labels('form');
    const inLabel = text.filter((l) => /form/i.test(l));
    expect(inLabel.length).toBeGreaterThan(1);
    expect(text.slice(0, inLabel.length)).toEqual(inLabel);
    expect(text.length).toBeGreaterThan(inLabel.length);
  });

  it('lists every type for an empty search, in palette order, and none for nonsense', () => {
    expect(labels('').length).toBeGreaterThan(20);
    expect(labels('zzqx')).toEqual([]);
  });

  it('knows the widget of a shared asset', () => {
    expect(widgetTypeForAsset({ type: 'cmsImageAsset' })?.type).toBe('cmsImage');
  });
});
