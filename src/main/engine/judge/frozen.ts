/**
 * Deep freezing, for values built once and shared by every rep (tool and verdict schemas): a
 * caller that tried to change one would change it for all, so it throws instead.
 */

/** Freezes `value` and everything in it; returns it. */
export function deepFreeze<Value>(value: Value): Value {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
