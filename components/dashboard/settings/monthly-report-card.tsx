import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

type Setting = { monthlyReportEmail: boolean; monthlyReportTo: string | null };

/**
 * Whether last month's payments report is emailed to the owners early each month, and to which
 * owner. The report holds payers' addresses and amounts, so it goes only to owners, and only an
 * owner who signed in recently (or an API key) changes this (lib/authority/operations.ts
 * reports.schedule). For members (no `update`) it is shown read-only.
 */
export function MonthlyReportCard<T>(props: { setting: Setting; owners: string[]; update?: FormAction<T> }) {
  const { monthlyReportEmail: enabled, monthlyReportTo: to } = props.setting;
  const recipients = [["", "Every owner"], ...props.owners.map((email) => [email, email])];
  return (
    <Card
      title="Monthly report"
      description="On the 1st of each month, owners are emailed last month's totals and a link to its payments report (CSV, UTC month)."
    >
      <div className="p-5">
        {props.update ? (
          <ActionForm action={props.update} submitLabel="Save monthly report" success="Saved.">
            <label className="flex items-start gap-2 text-sm text-slate-700">
              <input type="checkbox" name="monthlyReportEmail" defaultChecked={enabled} className="mt-0.5" />
              <span>Email last month&apos;s payments report on the 1st of each month</span>
            </label>
            <div className="mt-4">
              <Field label="Send to" hint="Only owners: the report lists payers' addresses and amounts.">
                <select name="monthlyReportTo" defaultValue={to ?? ""} className={inputStyles}>
                  {recipients.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
              </Field>
            </div>
          </ActionForm>
        ) : (
          <p className="text-sm text-slate-700">
            Monthly report email:{" "}
            <span className="font-medium text-slate-900">
              {enabled ? `on, to ${to ? "one owner" : "every owner"}` : "off"}
            </span>
          </p>
        )}
      </div>
    </Card>
  );
}
