/** Paper-derived constants for the judge (see each module's header for sources and gaps). */
export * from './types';
export * from './normalize';
export * from './cue-wordings';
export * from './cue-templates';
export * from './placements';
export * from './budget';
export * from './dimensions';
export * from './taxonomies';
export * from './mitigations';
export * from './protocol';
export * from './numbers';
export * from './numbers-appendix';
