/**
 * LabApi methods for API keys: the window hands a key to the engine for this session, and sees
 * which keys the engine holds, never their values.
 */
import { z } from 'zod';
import { keyVariableShape } from '../secrets';

/** Secret methods. */
export const secretMethods = {
  /** Hands an API key to the engine for this session (never stored, never echoed back). */
  setSecret: {
    request: z.object({ name: z.string().regex(keyVariableShape), value: z.string() }).strict(),
    response: z.object({ name: z.string(), set: z.boolean() }),
  },
  /** Which keys the engine has, each shown only as its last 4 characters. */
  listSecrets: {
    request: z.object({}).strict(),
    response: z.array(
      z.object({ name: z.string(), source: z.enum(['environment', 'session']), hint: z.string() }),
    ),
  },
} as const;
