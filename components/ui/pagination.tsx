import Link from "next/link";
import { buttonStyles } from "./button-styles";

/** Previous/next links that keep the page's other query parameters (its filters). */
export function Pagination({
  page,
  rows,
  total,
  query,
}: {
  page: number;
  rows: number;
  total: number;
  query: Record<string, string | undefined>;
}) {
  const pages = Math.max(1, Math.ceil(total / rows));
  const href = (target: number) => {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
    params.set("page", String(target));
    return `?${params}`;
  };
  const first = total === 0 ? 0 : (page - 1) * rows + 1;
  return (
    <nav
      aria-label="Pagination"
      className="flex items-center justify-between gap-3 border-t border-slate-100 px-5 py-3 text-sm text-slate-500"
    >
      <span>
        {first}–{Math.min(page * rows, total)} of {total}
      </span>
      <span className="flex gap-2">
        {page > 1 ? (
          <Link className={buttonStyles.secondary} href={href(page - 1)}>
            Previous
          </Link>
        ) : null}
        {page < pages ? (
          <Link className={buttonStyles.secondary} href={href(page + 1)}>
            Next
          </Link>
        ) : null}
      </span>
    </nav>
  );
}
