import type { Rule } from 'eslint';

/** See cli-engine-entry.mjs. */
declare const rule: Rule.RuleModule;
export default rule;
