/**
 * Seeded randomness. Every random choice in CueLab (item order, scattered cue positions,
 * synthetic-judge draws) comes from a generator seeded by the study seed (17 in the paper,
 * App. R) and the names of what is being chosen, so the same seed gives the same study.
 */

/** A generator of uniform floats in [0, 1). */
export type Random = () => number;

import { hashString } from '../../shared/condition-keys';

// One FNV-1a for seeds and condition keys alike (src/shared, so the window has it too).
export { hashString };

/** Mulberry32: small, fast, good enough for experimental design (not for cryptography). */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A generator for one named purpose under a study seed, e.g. (17, 'placement', item id). */
export function seededRandom(seed: number, ...scope: string[]): Random {
  return mulberry32(hashString(`${seed}\u0000${scope.join('\u0000')}`));
}

/** `count` distinct integers from [0, size), ascending, drawn without replacement. */
export function sampleDistinct(random: Random, size: number, count: number): number[] {
  const pool = Array.from({ length: size }, (_, index) => index);
  const take = Math.min(count, size);
  for (let index = 0; index < take; index += 1) {
    const swap = index + Math.floor(random() * (size - index));
    [pool[index], pool[swap]] = [pool[swap] as number, pool[index] as number];
  }
  return pool.slice(0, take).sort((a, b) => a - b);
}
