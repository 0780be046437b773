/** The labels' face: mechanism labels on reps, from the meta-judge and from annotators. */
export {
  ANNOTATOR_PATTERN,
  labelsForRep,
  listStudyLabels,
  replaceRepLabels,
  saveLabels,
} from '../labels';
export type { LabelInput } from '../labels';
