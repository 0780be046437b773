/** The CLI's help lists the results columns the engine's parser reads, no more, no fewer. */
import { describe, expect, it } from 'vitest';
import { KNOWN_COLUMNS, REQUIRED_COLUMNS } from '../../src/main/engine/reports/results-parse';
import { knownResultColumns, requiredResultColumns } from '../../src/shared/results-columns';

describe('results columns', () => {
  it('match the parser', () => {
    expect([...requiredResultColumns]).toEqual([...REQUIRED_COLUMNS]);
    expect([...knownResultColumns]).toEqual([...KNOWN_COLUMNS]);
  });
});
