// What every part of the config schema is built with: zod, loaded on first use (lazy-zod.ts), and
// the few field shapes used all over (bounded integers, string tables and lists, open tables).
import type { z as Z } from 'zod';
import { loadZod } from './lazy-zod.js';

let z: typeof Z | undefined;

/** zod, loaded the first time a schema is built. */
export function zod(): typeof Z {
  z ??= loadZod().z;
  return z;
}

export function intIn(min: number, max?: number) {
  const z = zod();
  const allowed = max === undefined ? `an integer >= ${min}` : `an integer from ${min} to ${max}`;
  const base = z.number({ error: allowed }).int({ error: allowed }).min(min, { error: allowed });
  return max === undefined ? base : base.max(max, { error: allowed });
}

export const stringMap = () => zod().record(zod().string(), zod().string());
export const stringList = () => zod().array(zod().string());
/** Sections owned by other rooms (or not used yet): any table, checked where they are used. */
export const looseTable = () => zod().looseObject({});
