/**
 * Reads shared by key for `ttlMs`: a caller within that time gets the read under way or just
 * made instead of its own. One that joined a read which then fails reads again itself, so a
 * node's one failed answer fails no more callers than it would unshared. `fresh` reads anew and
 * shares that read from then on.
 */
export function shareRecentReads<T>(ttlMs: number, clock: () => number = Date.now) {
  const reads = new Map<string, { at: number; value: Promise<T> }>();
  return (key: string, read: () => Promise<T>, options: { fresh?: boolean } = {}) => {
    const now = clock();
    for (const [cached, { at }] of reads) if (now - at >= ttlMs) reads.delete(cached);
    const known = reads.get(key);
    if (known && !options.fresh) return { value: known.value.catch(() => read()), shared: true };
    const entry = { at: now, value: read() };
    reads.set(key, entry);
    entry.value.catch(() => reads.get(key) === entry && reads.delete(key));
    return { value: entry.value, shared: false };
  };
}
