import { Editor } from '@tiptap/core';
import { afterEach, describe, expect, it } from 'vitest';
import { richTextExtensions, serializeEditorHtml } from './extensions';
import { checkFidelity } from './fidelity';
import { cleanPastedHtml } from './paste-cleanup';

/** What the editor saves after loading `html` (nobody typing). */
function throughEditor(html: string): string {
  const editor = new Editor({
    element: document.createElement('div'),
    extensions: richTextExtensions(),
    content: html,
  });
  const out = serializeEditorHtml(editor.getHTML());
  editor.destroy();
  return out;
}

afterEach(() => {
  document.body.innerHTML = '';
});

/** HTML the editor holds: it loads and saves it unchanged (up to the documented equivalences). */
const ROUND_TRIPS: [string, string][] = [
  ['empty', ''],
  ['one paragraph', '<p>Hello world</p>'],
  ['headings 1–6', '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>'],
  ['marks', '<p><strong>bold</strong> <em>italic</em> <u>under</u> <s>gone</s> <code>x = 1</code></p>'],
  ['b and i', '<p><b>bold</b> and <i>italic</i></p>'],
  ['nested lists', '<ul><li>One<ul><li>One.1</li><li>One.2<ol><li>deep</li></ol></li></ul></li><li>Two</li></ul>'],
  ['ordered list from 3', '<ol start="3"><li><p>Three</p></li><li><p>Four</p></li></ol>'],
  ['blockquote and rule', '<blockquote><p>Quoted</p></blockquote><hr><p>after</p>'],
  [
    'link with target and rel',
    '<p>See <a href="https://example.com/x" target="_blank" rel="noopener noreferrer">the site</a>.</p>',
  ],
  [
    'site-relative and mail links',
    '<p><a href="/about">About</a> or <a href="mailto:hello@example.com">mail us</a></p>',
  ],
  [
    'image with alt, size and title',
    '<p><img src="/cms/rest/assets/binary/Assets/images/a.png" alt="A lake" title="Lake" width="300" height="200"></p>',
  ],
  [
    'table with head, body and colspan',
    '<table><thead><tr><th>Day</th><th>Hours</th></tr></thead><tbody><tr><td>Mon</td><td>9–5</td></tr><tr><td colspan="2">Closed on holidays</td></tr></tbody></table>',
  ],
  ['table without head', '<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>'],
  [
    'class, id, style and data-* kept',
    '<p class="lead intro" id="top" style="color: red" data-track="hero">Hi <strong class="k" data-x="1">there</strong></p><h2 id="more" lang="fr" dir="ltr">Plus</h2>',
  ],
  ['aria attributes', '<p aria-live="polite">Updates</p>'],
  ['entities and nbsp', '<p>Fish &amp; chips&nbsp;— &lt;tasty&gt; “quotes”</p>'],
  ['whitespace between blocks', '<h2>Title</h2>\n\n  <p>Text\n   over lines</p>\n'],
  ['text without a paragraph', 'Just text with <strong>bold</strong>'],
  ['line breaks', '<p>Line one<br>Line two</p>'],
  ['code block', '<pre><code>const a = 1;\n  return a;</code></pre>'],
  ['empty paragraphs kept', '<p>a</p><p></p><p>b</p>'],
];

/** HTML the editor cannot hold: flagged, naming what would go, never silently altered. */
const FLAGGED: [string, string, RegExp][] = [
  ['an iframe', '<p>Watch:</p><iframe src="https://video.example.com/embed/1" width="560"></iframe>', /<iframe>/],
  ['a script in raw HTML', '<p>x</p><script>track()</script>', /<script>/],
  ['a section', '<section class="hero"><p>Hi</p></section>', /<section>/],
  ['a div wrapper', '<div class="box"><p>Boxed</p></div>', /<div>/],
  ['a styled span', '<p>Some <span class="highlight">marked</span> text</p>', /<span>/],
  ['a comment', '<p>a</p><!-- keep me --><p>b</p>', /comment/],
  ['an unknown attribute', '<p><a href="/x" hreflang="fr">fr</a></p>', /hreflang/],
  ['superscript', '<p>E = mc<sup>2</sup></p>', /<sup>/],
  ['a form', '<form action="/send"><input name="q"></form>', /<form>/],
  ['an embedded data image', '<p><img src="data:image/png;base64,iVBORw0KGgo=" alt="x"></p>', /data/],
  ['word leftovers', '<p class="MsoNormal">Hello<o:p></o:p></p>', /o:p/],
];

describe('the rich text editor keeps what it can hold', () => {
  it.each(ROUND_TRIPS)('%s: loads and saves unchanged', (_name, html) => {
    const produced = throughEditor(html);
    expect(checkFidelity(html, produced), produced).toEqual({ representable: true, losses: [] });
  });

  it('keeps a table’s header row as <thead>', () => {
    expect(
      throughEditor('<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>'),
    ).toContain('<thead><tr><th');
  });

  it('keeps attributes as they were (not a default target or rel on links)', () => {
    const out = throughEditor('<p><a href="https://example.com">x</a></p>');
    expect(out).not.toMatch(/target=|rel=/);
    expect(throughEditor('<p class="lead" data-x="1">a</p>')).toMatch(/class="lead"/);
  });
});

describe('the rich text editor flags what it cannot hold', () => {
  it.each(FLAGGED)('%s: flagged, naming what would be lost', (_name, html, named) => {
    const result = checkFidelity(html, throughEditor(html));
    expect(result.representable).toBe(false);
    expect(result.losses.join('; ')).toMatch(named);
  });
});

describe('the fidelity check', () => {
  it('treats equivalent HTML as the same and changed HTML as different', () => {
    expect(checkFidelity('<p><b>a</b></p>', '<p><strong>a</strong></p>').representable).toBe(true);
    expect(checkFidelity('<p>a</p>', '<p>b</p>').representable).toBe(false);
    expect(checkFidelity('<p class="a b">x</p>', '<p class="a  b">x</p>').representable).toBe(true);
    expect(
      checkFidelity('<p style="color:red;margin:0">x</p>', '<p style="color: red; margin: 0;">x</p>').representable,
    ).toBe(true);
    expect(checkFidelity('<p class="a">x</p>', '<p>x</p>').representable).toBe(false);
    expect(checkFidelity('<ul><li>a</li></ul>', '<ul><li><p>a</p></li></ul>').representable).toBe(true);
  });
});

describe('pasting from word processors', () => {
  it('cleans Word’s markup and keeps the structure', () => {
    const word = `<html xmlns:o="urn:schemas-microsoft-com:office:office"><head><meta name=Generator content="Microsoft Word 15"><style>p.MsoNormal{margin:0}</style></head>
<body><!--[if gte mso 9]><xml><o:OfficeDocumentSettings></o:OfficeDocumentSettings></xml><![endif]-->
<h2 style="mso-outline-level:2">Opening <span style="mso-bidi-font-weight:normal">hours</span></h2>
<p class=MsoNormal style="margin-bottom:0cm;mso-line-height-alt:12pt"><b>Monday</b> to <i>Friday</i><o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraph style="mso-list:l0 level1 lfo1"><a href="https://example.com/visit">Plan a visit</a></p>
<table class=MsoTableGrid border=1 style="border-collapse:collapse"><tr><td width=100 style="width:75pt"><p class=MsoNormal>Cell</p></td></tr></table></body></html>`;
    const clean = cleanPastedHtml(word);
    expect(clean).not.toMatch(/mso|Mso|o:p|<style|<meta|style=|class=|width=/i);
    expect(clean).toContain('<h2>Opening hours</h2>');
    expect(clean).toContain('<p><b>Monday</b> to <i>Friday</i></p>');
    expect(clean).toContain('<a href="https://example.com/visit">Plan a visit</a>');
    expect(clean).toMatch(/<table><tbody><tr><td><p>Cell<\/p><\/td><\/tr><\/tbody><\/table>/);
    // The empty Word paragraph is gone.
    expect(clean.match(/<p>/g)).toHaveLength(3);
  });

  it('turns Google Docs’ styled spans into bold and italic and drops its wrapper', () => {
    const docs = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1234"><p dir="ltr" style="line-height:1.38"><span style="font-size:11pt;font-family:Arial;font-weight:700">Bold</span><span style="font-size:11pt"> and </span><span style="font-style:italic">italic</span></p><ul><li dir="ltr"><p dir="ltr"><span>Item</span></p></li></ul></b>`;
    const clean = cleanPastedHtml(docs);
    expect(clean).toBe('<p><strong>Bold</strong> and <em>italic</em></p><ul><li><p>Item</p></li></ul>');
  });

  it('cleans LibreOffice’s fonts and meta, and refuses script links and local images', () => {
    const lo = `<meta name="generator" content="LibreOffice 7.5"><p lang="en-GB" style="margin-bottom: 0cm"><font face="Liberation Serif"><span lang="en-GB">Text</span></font> <a href="javascript:alert(1)">bad</a> <img src="file:///C:/x.png"></p>`;
    expect(cleanPastedHtml(lo)).toBe('<p>Text <a>bad</a> </p>');
  });
});
