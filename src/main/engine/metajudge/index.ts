/**
 * The meta-judge (§3.3, App. F, H, N, P; ARCHITECTURE.md `metajudge`): why each flipped rep
 * flipped. Flipped pairs, the deterministic trajectory diff, the LLM ensemble, validation
 * against the synthetic judge, agreement statistics and the blind labelling queue.
 */
export * from '../mechanism-labels';
export * from './flipped';
export * from './run-record';
export * from './pair';
export * from './diff/claims';
export * from './diff/language';
export * from './diff/trajectory';
export * from './diff/classify';
export * from './validation';
export * from './agreement/kappa';
export * from './agreement/report';
export * from './agreement/study';
export * from './agreement/table';
export * from './ensemble/voters';
export * from './ensemble/prompt';
export * from './ensemble/answer';
export * from './ensemble/vote';
export * from './ensemble/run';
export * from './consensus/prompt';
export * from './consensus/gold';
export * from './consensus/study-gold';
export * from './classify-study';
export * from './queue';
