/**
 * What `classify` needs to know about a study before it labels its flips: whether its reps came
 * from the synthetic judge (its summary is then marked SIMULATED). Read here, not in the CLI
 * (all SQL in store/, returning parsed rows).
 */
import { z } from 'zod';
import { EngineError } from '../errors';
import type { Store } from './database';

const studyFlagsRow = z.object({ simulated: z.union([z.literal(0), z.literal(1)]) });

/** The flags of one study. */
export interface StudyFlags {
  /** True when any rep of the study came from the synthetic (simulated) judge. */
  simulated: boolean;
}

/** The flags of `studyId`; not_found when there is no such study. */
export function readStudyFlags(store: Store, studyId: string): StudyFlags {
  const row: unknown = store.db.prepare('SELECT simulated FROM studies WHERE id = ?').get(studyId);
  if (row === undefined)
    throw new EngineError('not_found', `There is no study "${studyId}" in this workspace.`);
  return { simulated: studyFlagsRow.parse(row).simulated === 1 };
}
