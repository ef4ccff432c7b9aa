import { buttonStyles } from "@/components/ui/button-styles";
import { inputStyles } from "@/components/ui/field";

const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * "Export CSV": a GET form to the report's own route, which answers the signed-in member's
 * browser as it answers an API key (lib/http/route.ts apiKeyOrMemberRoute) with the file as a
 * download. The range is UTC days, `to` not included; this month by default.
 */
export function ExportCsvForm({ report, label }: { report: "payments" | "refunds"; label: string }) {
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return (
    <form
      method="get"
      action={`/api/private/reports/${report}`}
      aria-label={label}
      className="flex flex-wrap items-end gap-2"
    >
      <input type="hidden" name="format" value="csv" />
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        From (UTC)
        <input type="date" name="from" required defaultValue={day(from)} className={inputStyles} />
      </label>
      <label className="flex flex-col gap-1 text-xs font-medium text-slate-600">
        Before (UTC)
        <input type="date" name="to" required defaultValue={day(to)} className={inputStyles} />
      </label>
      <button type="submit" className={buttonStyles.secondary}>
        Export CSV
      </button>
    </form>
  );
}
