/** Counted nouns in the CLI's sentences: "1 judge", "2 judges", "1 fix", "3 fixes". */
export function countOf(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
