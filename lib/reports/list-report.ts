import type { Paging } from "../validation/fields";
import type { ReportReader } from "./report-reader";

/** A page of a report (its JSON format) and how many rows it has in all. */
export async function listReport<R>(read: ReportReader<R>, count: () => Promise<number>, paging: Paging) {
  const [total, { rows }] = await Promise.all([
    count(),
    read({ take: paging.rows, skip: (paging.page - 1) * paging.rows }),
  ]);
  return { rows, total };
}
