import type { Rule } from 'eslint';

/** See engine-faces.mjs. */
declare const rule: Rule.RuleModule;
export default rule;
