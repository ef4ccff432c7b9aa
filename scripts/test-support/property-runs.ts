// How many cases a property test tries. `npm test` (and any run without the variable) tries the
// full count each test names; CI sets TEST_PROPERTY_SCALE to a fraction of it (README, Tests), and
// `TEST_PROPERTY_SCALE=1 bash .ci/run` is the long run with every case.

/** A scale from TEST_PROPERTY_SCALE: a number above 0 and at most 1, else an error naming it. */
export function propertyScale(value: string | undefined): number {
  if (value === undefined || value === "") return 1;
  const scale = Number(value);
  if (!(scale > 0 && scale <= 1))
    throw new Error(`TEST_PROPERTY_SCALE must be a number above 0 and at most 1 (got "${value}")`);
  return scale;
}

/** fast-check's numRuns for a property whose full run tries `full` cases: at least one. */
export function propertyRuns(full: number, scale = propertyScale(process.env.TEST_PROPERTY_SCALE)): number {
  return Math.max(1, Math.ceil(full * scale));
}
