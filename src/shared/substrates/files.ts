/** The files substrate's member: files (and a shell when asked), no database. */
import { z } from 'zod';
import { environmentBaseSchema } from './environment-base';

/** The substrate's name, read from here by whatever builds a files environment. */
export const filesName = 'files';

/** An environment of files only; what a document without a database or server means. */
export const filesEnvironmentSchema = environmentBaseSchema.extend({
  substrate: z.literal(filesName),
});
