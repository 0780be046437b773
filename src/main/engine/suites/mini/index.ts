/**
 * The built-in `cuelab-mini` suite: its recipes, over three substrates, and what the suite file
 * says about itself. `generate.ts` turns the recipes into `resources/suites/cuelab-mini.json`.
 */
import { moneyAndDateRecipes } from './recipes-code-money-dates';
import { totalsCsvSlugRecipes } from './recipes-code-totals-csv-slug';
import { customerRecipes } from './recipes-database-customers';
import { ordersRecipes } from './recipes-database-orders';
import { salaryRecipes } from './recipes-database-salaries';
import { stockRecipes } from './recipes-database-stock';
import { arrangeRecipes } from './recipes-filesystem-arrange';
import { postgresDataRecipes } from './recipes-postgres-data';
import { postgresSchemaRecipes } from './recipes-postgres-schema';
import { cleanupRecipes } from './recipes-filesystem-cleanup';
import { editRecipes } from './recipes-filesystem-edit';
import type { MiniRecipe } from './recipe';
export { searchRecipes as miniSearchRecipes } from './recipes-search';

/** Every container recipe: filesystem first, then database, code, and PostgreSQL. */
export const miniRecipes: readonly MiniRecipe[] = [
  ...arrangeRecipes,
  ...cleanupRecipes,
  ...editRecipes,
  ...salaryRecipes,
  ...customerRecipes,
  ...ordersRecipes,
  ...stockRecipes,
  ...moneyAndDateRecipes,
  ...totalsCsvSlugRecipes,
  ...postgresSchemaRecipes,
  ...postgresDataRecipes,
];

/** The suite file's own fields. */
export const miniSuiteInfo = {
  id: 'cuelab-mini',
  name: 'CueLab mini',
  description:
    'A small suite modelled on AJ-Bench Filesystem / Postgres / Deep Search and ' +
    'SWE-Bench-Verified: file arrangement, config edits and clean-ups; SQLite migrations and ' +
    'analyses; PostgreSQL migrations, reports, constraint fixes and clean-ups on a real server; ' +
    'fact finding on an offline web snapshot; bug fixes in a small Python project checked by ' +
    "hidden tests. Each trajectory is the real log of a scripted agent run in the item's " +
    "container (or on its web snapshot), and each label is what the item's verifier " +
    'says about the final state. About half pass; hard cases are noted per item. Rebuild with ' +
    '`cuelab suite build-mini`, check with `cuelab suite verify cuelab-mini`.',
} as const;
