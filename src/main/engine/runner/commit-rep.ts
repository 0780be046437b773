/**
 * Where a judged rep becomes stored: the runner, not the judge, opens the transaction, so the
 * rep, its web recording and its job's completion land together or not at all (as
 * graphile-worker completes a job in the transaction of the job's own work).
 */
import type { RepRecord } from '../contract';
import type { WebRecording } from '../environments';
import { judgeRep, type JudgeRepRequest, type JudgedRep } from '../judge';
import { type Store, inTransaction } from '../store';
import { saveJudgeRep, saveWebRecording } from '../store/faces/reps';

/** What lands with the rep in its transaction. */
export interface RepCompanions {
  /** The live web's pages, so the rep's replay needs no network. */
  webRecording?: WebRecording;
  /** Completes the rep's job; throws when the lease was lost, which rolls the rep back. */
  completeJob?: (repId: string) => void;
}

/** Stores one judged rep with its companions in one transaction; returns the rep's id. */
export function commitRep(store: Store, record: RepRecord, companions: RepCompanions = {}): string {
  return inTransaction(store, () => {
    const repId = saveJudgeRep(store, record);
    if (companions.webRecording) saveWebRecording(store, repId, companions.webRecording);
    companions.completeJob?.(repId);
    return repId;
  });
}

/** A judged rep and the id it was stored under. */
export interface JudgeRepResult extends JudgedRep {
  repId: string;
}

/** Runs one rep and stores it on its own (a rep outside any study's queue). */
export async function runJudgeRep(store: Store, request: JudgeRepRequest): Promise<JudgeRepResult> {
  const judged = await judgeRep(request);
  return { ...judged, repId: commitRep(store, judged.record) };
}
