/**
 * The live web backend's HTML reader on pages written by strangers: what the judge reads, and
 * that 1 MB and 2 MiB of unclosed elements, comments, attributes and nesting finish (a reader
 * that searches ahead from every `<` is quadratic there and takes minutes; speed itself is in
 * bench/strangers-text.ts).
 */
import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/main/engine/substrates/web/html-text';

const megabyte = 1024 * 1024;

/** `unit` repeated to at least `size` characters. */
function fill(unit: string, size: number): string {
  return unit.repeat(Math.ceil(size / unit.length));
}

describe('htmlToText', () => {
  it('reads a page: title, words, line breaks and entities; no script, style or comment', () => {
    const page = `<!doctype html><html><head><title>Q3 &amp; Q4 report</title>
      <style>body { color: red }</style><script>var secret = 1;</script></head>
      <body><h1>Sales</h1><p>Up 5&nbsp;% &lt;est.&gt;</p><!-- hidden note -->
      <div>line one<br/>line two</div><noscript>enable js</noscript>
      <p>a < b and c > d</p><script type="x">alert(1)</SCRIPT ></body></html>`;
    expect(htmlToText(page)).toEqual({
      title: 'Q3 & Q4 report',
      content: 'Sales\nUp 5 % <est.>\nline one\nline two\na < b and c > d',
    });
  });

  it('keeps a page whose </head> is left out (HTML allows it)', () => {
    expect(htmlToText('<head><title>T</title><body><p>words</p>')).toEqual({
      title: 'T',
      content: 'words',
    });
  });

  for (const size of [megabyte, 2 * megabyte]) {
    const label = size === megabyte ? '1 MB' : '2 MiB';

    it(`${label} of unclosed <script> and <style>: the text before them, nothing after`, () => {
      for (const tag of ['script', 'style', 'SCRIPT', 'noscript', 'template']) {
        const page = `<title>Page</title><p>before</p>${fill(`<${tag}>x = "</p>";`, size)}`;
        expect(htmlToText(page)).toEqual({ title: 'Page', content: 'before' });
      }
    });

    it(`${label} of closed scripts between words: every word, no script`, () => {
      const page = fill('<script>let a = 1;</script>word ', size);
      const words = page.length / '<script>let a = 1;</script>word '.length;
      expect(htmlToText(page).content).toBe(Array(words).fill('word').join(' '));
    });

    it(`${label} of unclosed comments and unclosed <title>: left as text`, () => {
      const comments = fill('<!-- a ', size);
      expect(htmlToText(comments).content).toBe(comments.trim());
      const titles = fill('<title', size);
      expect(htmlToText(titles)).toEqual({ title: 'untitled page', content: titles });
      const ends = `<p>one</p>${fill('<!-- x --', size)}>two`;
      expect(htmlToText(ends).content).toBe('one\ntwo');
    });

    it(`${label} of attributes: an unclosed tag is text, a closed one is gone`, () => {
      const open = fill('<a href="x" ', size);
      expect(htmlToText(open).content).toBe(open.trim());
      const closed = `${fill('<a href="x" ', size)}>visible`;
      expect(htmlToText(closed).content).toBe('visible');
      const value = `<p title="${fill('y', size)}">inside</p>`;
      expect(htmlToText(value).content).toBe('inside');
    });

    it(`${label} of nesting: the innermost words`, () => {
      const depth = Math.ceil(size / 11);
      const page = `${'<div><span>'.repeat(depth)}deep${'</span></div>'.repeat(depth)}`;
      expect(htmlToText(page).content).toBe('deep');
    });

    it(`${label} of entity look-alikes and bare <: decoded where whole, kept where not`, () => {
      const hex = `&#x${fill('4', size)}`;
      expect(htmlToText(hex).content).toBe(hex);
      const angles = fill('< ', size);
      expect(htmlToText(`${angles}&lt;`).content).toBe(`${angles.trim()} <`);
    });
  }
});
