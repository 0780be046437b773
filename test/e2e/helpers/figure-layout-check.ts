/**
 * Finds the layout faults of every figure on the page, measured by Chromium itself: text that
 * runs outside its SVG, text cut short with "…" (or squeezed by textLength), text boxes on top
 * of each other or of a whisker, and HTML in a chart card cut by overflow (scrollWidth larger
 * than clientWidth). Each fault names the chart and the text, so a failure reads as a list.
 */
import type { Page } from 'playwright-core';

/** One fault: which chart, what kind, and the text involved. */
export interface LayoutFault {
  chart: string;
  kind: 'outside' | 'cut' | 'overlap' | 'on-whisker' | 'overflow';
  text: string;
}

// Runs in the page. Kept as source text so the bundler's helpers never leak into the browser.
const findFaults = `(() => {
  const faults = [];
  const slack = 0.5;
  const visibleText = (node) => {
    let text = '';
    for (const child of node.childNodes) {
      if (child.nodeName === 'title') continue;
      text += child.textContent || '';
    }
    return text.trim();
  };
  const shown = (node) => {
    for (let at = node; at && at.nodeName !== 'svg'; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0)
        return false;
    }
    return true;
  };
  const overlap = (a, b) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  for (const card of document.querySelectorAll('section.chart-card')) {
    const chart = (card.getAttribute('data-testid') || '').replace(/^chart-/, '');
    for (const element of card.querySelectorAll('*')) {
      if (element.closest('svg')) continue;
      if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible' && element.clientWidth > 0)
        faults.push({ chart, kind: 'overflow', text: (element.textContent || '').trim().slice(0, 80) });
    }
    const svg = card.querySelector('.chart-body > svg');
    if (!svg) continue;
    const frame = svg.getBoundingClientRect();
    const texts = [];
    for (const node of svg.querySelectorAll('text')) {
      const text = visibleText(node);
      if (!text || !shown(node)) continue;
      const box = node.getBoundingClientRect();
      if (box.width === 0) continue;
      texts.push({ text, box });
      if (box.left < frame.left - slack || box.right > frame.right + slack || box.top < frame.top - slack || box.bottom > frame.bottom + slack)
        faults.push({ chart, kind: 'outside', text });
      let squeezed = false;
      const squeezedTo = node.getAttribute('textLength');
      if (squeezedTo !== null) {
        const natural = node.cloneNode(true);
        natural.removeAttribute('textLength');
        node.parentNode.append(natural);
        squeezed = natural.getComputedTextLength() > Number(squeezedTo) + slack;
        natural.remove();
      }
      if (text.endsWith('…') || squeezed) faults.push({ chart, kind: 'cut', text });
    }
    for (let first = 0; first < texts.length; first += 1)
      for (let second = first + 1; second < texts.length; second += 1)
        if (overlap(texts[first].box, texts[second].box))
          faults.push({ chart, kind: 'overlap', text: texts[first].text + ' / ' + texts[second].text });
    for (const whisker of svg.querySelectorAll('[data-part="whisker"]')) {
      const box = whisker.getBoundingClientRect();
      for (const entry of texts) if (overlap(entry.box, box)) faults.push({ chart, kind: 'on-whisker', text: entry.text });
    }
  }
  return faults;
})()`;

/** Every layout fault of the figures on the page now. */
export async function figureLayoutFaults(page: Page): Promise<LayoutFault[]> {
  return page.evaluate<LayoutFault[]>(findFaults);
}
