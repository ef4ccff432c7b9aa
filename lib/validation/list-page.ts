import type { Paging } from "./fields";

/** The one shape of a paged list: `{object: "list", data, page, rows, total, hasMore}`. */
export function listPage<T>(data: T[], paging: Paging, total: number) {
  return {
    object: "list" as const,
    data,
    page: paging.page,
    rows: paging.rows,
    total,
    hasMore: paging.page * paging.rows < total,
  };
}
