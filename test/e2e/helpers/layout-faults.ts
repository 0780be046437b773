/**
 * A general layout check, measured by Chromium: every visible text's boxes (each line of each
 * text node in HTML, each `<text>` in an SVG) against the box that clips it, the window, and the
 * other texts of its layer. It knows no screen or figure: it reports text outside its SVG or the
 * window, text cut by an `overflow: hidden` ancestor or an ellipsis, a box that scrolls sideways,
 * a select too narrow for its choice, texts on top of each other, and a word broken across
 * lines where it has no joint to break at. Each fault names the text, so a failure is a list.
 */
import type { Page } from 'playwright-core';

/** One fault: what is wrong and the text (and place) involved. */
export interface TextFault {
  kind: 'outside' | 'cut' | 'sideways' | 'overlap' | 'broken-word' | 'squeezed';
  text: string;
}

// Runs in the page. Kept as source text so no bundler helper leaks into the browser.
const shared = `
  const slack = 1;
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > slack &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > slack;
  const short = (text) => text.replace(/\\s+/g, ' ').trim().slice(0, 70);
  // Where a wrapped label's lines meet, its whole text must have a space or a joint
  // (- _ @ + . / : , ·); two letters or digits meeting there are a word broken in two.
  const brokenWord = (full, lines) => {
    if (!full || lines.length < 2) return null;
    let at = 0;
    for (let index = 0; index < lines.length - 1; index += 1) {
      const found = full.indexOf(lines[index], at);
      if (found < 0) return null;
      at = found + lines[index].length;
      if (/[\\p{L}\\p{N}]/u.test(full[at - 1] || '') && /[\\p{L}\\p{N}]/u.test(full[at] || ''))
        return lines[index] + '|' + lines[index + 1];
    }
    return null;
  };
  const svgFaults = (svg, faults, where) => {
    const frame = svg.getBoundingClientRect();
    const texts = [];
    for (const node of svg.querySelectorAll('text')) {
      if (node.closest('[aria-hidden="true"] svg, defs, title') || !node.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const spans = [...node.querySelectorAll('tspan')];
      const lines = spans.length > 0 ? spans.map((span) => (span.textContent || '').trim()) : [(node.textContent || '').trim()];
      const text = lines.join(' ').trim();
      if (!text) continue;
      const box = node.getBoundingClientRect();
      if (box.width === 0) continue;
      const parts = spans.length > 0 ? spans.map((span) => span.getBoundingClientRect()) : [box];
      texts.push({ text, parts });
      if (box.left < frame.left - slack || box.right > frame.right + slack || box.top < frame.top - slack || box.bottom > frame.bottom + slack)
        faults.push({ kind: 'outside', text: where + short(text) });
      if (text.endsWith('…')) faults.push({ kind: 'cut', text: where + short(text) });
      const squeezedTo = node.getAttribute('textLength');
      if (squeezedTo !== null) {
        const natural = node.cloneNode(true);
        natural.removeAttribute('textLength');
        node.parentNode.append(natural);
        if (natural.getComputedTextLength() > Number(squeezedTo) + slack) faults.push({ kind: 'squeezed', text: where + short(text) });
        natural.remove();
      }
      const broken = brokenWord(node.getAttribute('data-label'), lines);
      if (broken) faults.push({ kind: 'broken-word', text: where + broken });
    }
    for (let first = 0; first < texts.length; first += 1)
      for (let second = first + 1; second < texts.length; second += 1)
        if (texts[first].parts.some((a) => texts[second].parts.some((b) => overlap(a, b))))
          faults.push({ kind: 'overlap', text: where + short(texts[first].text) + ' / ' + short(texts[second].text) });
  };
`;

const screenScript = `((rootSelector) => {
  ${shared}
  const faults = [];
  const root = rootSelector ? document.querySelector(rootSelector) : document.body;
  if (!root) return [{ kind: 'outside', text: 'no element ' + rootSelector }];
  const visible = (element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true });
  // The layer a text paints in: its nearest fixed, sticky or z-indexed positioned ancestor.
  const layerOf = (element) => {
    for (let at = element; at && at !== document.body; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.position === 'fixed' || style.position === 'sticky' || (style.position === 'absolute' && style.zIndex !== 'auto') || at.tagName === 'DIALOG') return at;
    }
    return document.body;
  };
  const scrollable = (style) => style.overflowX === 'auto' || style.overflowX === 'scroll';
  const clips = (style) => style.overflowX === 'hidden' || style.overflowX === 'clip' || style.overflowY === 'hidden' || style.overflowY === 'clip';
  const texts = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || !node.textContent.trim()) continue;
    if (parent.closest('svg, script, style, option, noscript, textarea, title')) continue;
    if (!visible(parent)) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const boxes = [...range.getClientRects()].filter((box) => box.width > 0.5 && box.height > 0.5);
    if (boxes.length === 0) continue;
    const text = short(node.textContent);
    // What of the text shows: its boxes cut to every ancestor that clips or scrolls (a row
    // scrolled out of a list is hidden, not on top of the text below the list).
    let shownBoxes = boxes.map((box) => ({ left: box.left, right: box.right, top: box.top, bottom: box.bottom }));
    for (let at = parent.parentElement; at && at !== document.documentElement; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const clip = at.getBoundingClientRect();
      shownBoxes = shownBoxes
        .map((box) => ({ left: Math.max(box.left, clip.left), right: Math.min(box.right, clip.right), top: Math.max(box.top, clip.top), bottom: Math.min(box.bottom, clip.bottom) }))
        .filter((box) => box.right - box.left > slack && box.bottom - box.top > slack);
    }
    texts.push({ text, boxes: shownBoxes, parent, layer: layerOf(parent) });
    // Clipped by an ancestor that hides overflow, or inside a scroller: only the scroller's
    // content counts, not what it shows now (a list scrolled down is not a cut).
    let scroller = null;
    for (let at = parent; at && at !== document.documentElement; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (scrollable(style) || style.overflowY === 'auto' || style.overflowY === 'scroll') { scroller = at; break; }
      if (!clips(style)) continue;
      const box = at.getBoundingClientRect();
      // A 1-pixel box is text for screen readers only (visually hidden), not a cut.
      if (box.width <= 2 || box.height <= 2) break;
      const left = box.left + at.clientLeft, top = box.top + at.clientTop;
      const inner = { left, top, right: left + at.clientWidth, bottom: top + at.clientHeight };
      if (boxes.some((line) => (style.overflowX !== 'visible' && (line.left < inner.left - slack || line.right > inner.right + slack)) || (style.overflowY !== 'visible' && (line.top < inner.top - slack || line.bottom > inner.bottom + slack)))) {
        faults.push({ kind: 'cut', text: text + ' (in ' + (at.className || at.tagName) + ')' });
        break;
      }
    }
    const fixed = parent.closest('.content, .drawer, [role="dialog"]') === null;
    if (!scroller || fixed)
      if (boxes.some((line) => line.left < -slack || line.right > innerWidth + slack))
        faults.push({ kind: 'outside', text: text + ' (beyond the window)' });
  }
  // Ellipsis: a box that says it cuts its text.
  for (const element of root.querySelectorAll('*')) {
    if (element.closest('svg')) continue;
    const style = getComputedStyle(element);
    if (!visible(element) || element.clientWidth === 0) continue;
    if (style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1)
      faults.push({ kind: 'cut', text: short(element.textContent || '') + ' (ellipsis)' });
    if (scrollable(style) && element.scrollWidth > element.clientWidth + 1 && !element.matches('pre, pre *, code, [data-scrolls-sideways]'))
      faults.push({ kind: 'sideways', text: (element.className || element.tagName) + ': ' + short(element.textContent || '') });
    if (element.tagName === 'SELECT' && element.selectedOptions[0]) {
      const canvas = document.createElement('canvas').getContext('2d');
      canvas.font = style.font;
      const need = canvas.measureText(element.selectedOptions[0].text).width;
      const room = element.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 14;
      if (need > room + slack) faults.push({ kind: 'cut', text: element.selectedOptions[0].text + ' (select)' });
    }
  }
  if (document.scrollingElement.scrollWidth > innerWidth + slack)
    faults.push({ kind: 'sideways', text: 'the window scrolls sideways' });
  // Texts of one layer that sit on top of each other.
  for (let first = 0; first < texts.length; first += 1)
    for (let second = first + 1; second < texts.length; second += 1) {
      const a = texts[first], b = texts[second];
      if (a.layer !== b.layer || a.parent === b.parent) continue;
      if (a.boxes.some((x) => b.boxes.some((y) => overlap(x, y))))
        faults.push({ kind: 'overlap', text: a.text + ' / ' + b.text });
    }
  for (const svg of root.querySelectorAll('svg')) if (visible(svg) && svg.querySelector('text')) svgFaults(svg, faults, '');
  return faults;
})`;

const svgScript = `(() => {
  ${shared}
  const faults = [];
  for (const svg of document.querySelectorAll('body > svg')) svgFaults(svg, faults, '');
  return faults;
})()`;

/** Every text fault inside `rootSelector` (the whole page when absent) as it is drawn now. */
export async function screenTextFaults(page: Page, rootSelector?: string): Promise<TextFault[]> {
  return page.evaluate<TextFault[]>(`${screenScript}(${JSON.stringify(rootSelector ?? null)})`);
}

/**
 * The text faults of an exported SVG file, drawn alone in a fresh page at its own size (inches
 * at 96 px each) so nothing of the window can hide or widen it.
 */
export async function svgFileFaults(page: Page, svgText: string): Promise<TextFault[]> {
  await page.setContent(`<!doctype html><body style="margin:0">${svgText}</body>`);
  return page.evaluate<TextFault[]>(svgScript);
}
