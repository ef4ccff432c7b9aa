import Link from "next/link";
import { buttonStyles } from "@/components/ui/button-styles";
import { inputStyles } from "@/components/ui/field";
import { humanize } from "@/components/ui/status-badge";

/** A list's filters as a plain GET form, so a filtered view is a link that can be shared. */
export function ListFilters({
  statuses,
  status,
  q,
  searchLabel,
}: {
  statuses: readonly string[];
  status?: string;
  q?: string;
  /** The search box's label; a list without one filters by status alone. */
  searchLabel?: string;
}) {
  return (
    <form
      method="get"
      className="flex flex-col gap-3 border-b border-slate-100 px-5 py-4 sm:flex-row sm:items-end"
    >
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 sm:w-48">
        Status
        <select name="status" defaultValue={status ?? ""} className={inputStyles}>
          <option value="">All statuses</option>
          {statuses.map((value) => (
            <option key={value} value={value}>
              {humanize(value)}
            </option>
          ))}
        </select>
      </label>
      {searchLabel ? (
        <label className="flex flex-1 flex-col gap-1 text-xs font-medium text-slate-600">
          {searchLabel}
          <input name="q" defaultValue={q ?? ""} className={inputStyles} placeholder="Exact id" />
        </label>
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className={buttonStyles.secondary}>
          Filter
        </button>
        {status || q ? (
          <Link href="?" className={buttonStyles.ghost}>
            Clear
          </Link>
        ) : null}
      </div>
    </form>
  );
}
