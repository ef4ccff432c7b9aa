/** The last row read (its time and id): the next batch starts after it. */
export type ReportCursor = { at: Date; id: string };

/** Which rows to read: `take` of them after a cursor (streaming) or from an offset (a JSON page). */
export type ReportWindow = { take: number; after?: ReportCursor; skip?: number };

/** Reads one batch of a report's rows, in time order, and where the next batch starts. */
export type ReportReader<R> = (window: ReportWindow) => Promise<{ rows: R[]; last: ReportCursor | null }>;

/**
 * The keyset part of a batch's Prisma query on a time column and the id: the rows after the
 * cursor, in that order, `take` of them (or from an offset). `since` is the range's start or, past
 * the first batch, the cursor's time, so an index on the column starts where the last batch ended.
 */
export function keysetWindow<T extends string>(column: T, window: ReportWindow, from: Date) {
  const { after, take, skip } = window;
  return {
    since: after ? after.at : from,
    after: after
      ? { OR: [{ [column]: { gt: after.at } }, { [column]: after.at, id: { gt: after.id } }] }
      : {},
    orderBy: [{ [column]: "asc" }, { id: "asc" }] as { [K in T | "id"]?: "asc" }[],
    take,
    skip,
  };
}
