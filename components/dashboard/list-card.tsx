import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { type Column, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Pagination } from "@/components/ui/pagination";

/**
 * A dashboard list: its filters, then the table with its pages (a list shown whole has no
 * `paging`), or what to do when there is nothing to show (`empty`, under `emptyTitle`).
 */
export function ListCard<Row>({
  title,
  description,
  filters,
  caption,
  columns,
  rows,
  rowKey,
  emptyTitle,
  empty,
  paging,
}: {
  title?: ReactNode;
  description?: ReactNode;
  filters?: ReactNode;
  caption: string;
  columns: Column<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  emptyTitle: string;
  empty: ReactNode;
  paging?: { page: number; rows: number; total: number; query: Record<string, string | undefined> };
}) {
  return (
    <Card title={title} description={description}>
      {filters}
      {rows.length === 0 ? (
        <EmptyState title={emptyTitle}>{empty}</EmptyState>
      ) : (
        <>
          <DataTable caption={caption} columns={columns} rows={rows} rowKey={rowKey} />
          {paging ? <Pagination {...paging} /> : null}
        </>
      )}
    </Card>
  );
}
