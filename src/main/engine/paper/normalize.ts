/**
 * Normaliser for the markdown conversion of the paper
 * (its pymupdf4llm 0.0.27 output; the test reads the file named by CUELAB_PAPER).
 *
 * Every verbatim constant in this folder is written in the form this function produces, and
 * test/unit/paper-text.test.ts checks each one against `normalizePaperText(paper)`. Only
 * PDF-conversion artefacts are touched; the paper's own characters (curly quotes ’ “ ”, em
 * dashes —, ×, −, the ASCII "..." the tables print) are kept exactly. The steps, in order:
 *
 * 1. Ligatures (U+FB00–U+FB06) are expanded to their letters; soft hyphens (U+00AD) are removed.
 *    (The current conversion contains neither; the step is kept for other conversions.)
 * 2. Bold markers `**` are removed.
 * 3. Emphasis underscores are removed: an `_` is kept only when it sits inside an identifier
 *    (both neighbours are letters, digits or `_`, e.g. `top_p`, `aj_search`), so `_word_`,
 *    `_a_ _domain_` and the math-mode `0 _._ 70` lose theirs.
 * 4. Line-break hyphenation inside emphasised runs (`con-` + newline + `fidence`, which the
 *    converter left alone) is joined. The hyphen is kept when the hyphenated compound also occurs
 *    unbroken elsewhere in the document (`over-` / `trust` → `over-trust`) and dropped otherwise
 *    (`con-` / `fidence` → `confidence`). Plain-text line breaks were already de-hyphenated by the
 *    converter, which sometimes dropped a real hyphen (`SWE-BenchVerified`); those are not
 *    repaired here, and constants that depend on them say so.
 * 5. Math-mode decimals: `0 . 70` (digit, space, dot, space, digit) becomes `0.70`.
 * 6. Every run of whitespace (including newlines and blank lines) becomes one space.
 */
export function normalizePaperText(raw: string): string {
  let text = expandLigatures(raw).replace(/\u00AD/g, '');
  text = text.replace(/\*\*/g, '');
  text = stripEmphasisUnderscores(text);
  text = joinHyphenatedLineBreaks(text);
  text = text.replace(/(\d) \. (\d)/g, '$1.$2');
  return text.replace(/\s+/g, ' ').trim();
}

/** Whitespace-free form used to compare text the PDF layout split across table cells. */
export function compactPaperText(text: string): string {
  return text.replace(/\s+/g, '');
}

const LIGATURES: Readonly<Record<string, string>> = {
  '\uFB00': 'ff',
  '\uFB01': 'fi',
  '\uFB02': 'fl',
  '\uFB03': 'ffi',
  '\uFB04': 'ffl',
  '\uFB05': 'st',
  '\uFB06': 'st',
};

function expandLigatures(text: string): string {
  return text.replace(/[\uFB00-\uFB06]/g, (ch) => LIGATURES[ch] ?? ch);
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;

function stripEmphasisUnderscores(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch !== '_') {
      out += ch;
      continue;
    }
    const prev = text[i - 1] ?? ' ';
    const next = text[i + 1] ?? ' ';
    if (IDENTIFIER_CHAR.test(prev) && IDENTIFIER_CHAR.test(next)) out += ch;
  }
  return out;
}

function joinHyphenatedLineBreaks(text: string): string {
  const broken = /([A-Za-z]+)-[ \t]*\n[ \t]*([a-z]+)/g;
  return text.replace(broken, (_match, head: string, tail: string) => {
    const compound = `${head}-${tail}`;
    const keepHyphen = new RegExp(`\\b${compound}\\b`).test(text);
    return keepHyphen ? compound : `${head}${tail}`;
  });
}
