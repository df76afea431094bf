import { describe, expect, it } from 'vitest';
import { parseSnippet, unescapeHtml } from './snippet';

describe('parseSnippet', () => {
  it('splits the marked words from the text around them', () => {
    expect(parseSnippet('The <mark>gallery</mark> opens at <mark>noon</mark>.')).toEqual([
      { text: 'The ', marked: false },
      { text: 'gallery', marked: true },
      { text: ' opens at ', marked: false },
      { text: 'noon', marked: true },
      { text: '.', marked: false },
    ]);
  });

  it('unescapes the text, so an escaped tag is shown as the text it was and never becomes markup', () => {
    const parts = parseSnippet('&lt;script&gt;alert(1)&lt;/script&gt; &amp; <mark>Tom&#39;s</mark> &#x22;x&#x22;');
    expect(parts).toEqual([
      { text: '<script>alert(1)</script> & ', marked: false },
      { text: "Tom's", marked: true },
      { text: ' "x"', marked: false },
    ]);
  });

  it('keeps any other tag-like text as text and joins neighbouring runs', () => {
    expect(parseSnippet('<b>bold</b><mark>a</mark><mark>b</mark>')).toEqual([
      { text: '<b>bold</b>', marked: false },
      { text: 'ab', marked: true },
    ]);
    expect(parseSnippet('')).toEqual([]);
  });

  it('leaves unknown and out-of-range entities alone', () => {
    expect(unescapeHtml('&bogus; &#0; &#x110000; &nbsp;')).toBe('&bogus; &#0; &#x110000; \u00a0');
  });
});
