import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

/**
 * What agents may refund on their own per day, and whether overpayments go back to their payers
 * by themselves. Owners change them here or with the API key; an agent never can (it would raise
 * its own cap: lib/refunds/assert-may-configure-refunds.ts).
 */
export function RefundSettingsCard<T>({
  capUsd,
  autoRefundOverpayments,
  update,
}: {
  /** The agents' daily cap in USD, as a decimal string. */
  capUsd: string;
  autoRefundOverpayments: boolean;
  /** The update action, for owners; absent, the settings are shown read-only. */
  update?: FormAction<T>;
}) {
  return (
    <Card
      title="Refunds"
      description="What agent credentials and connected apps may refund to payers without an owner, and automatic refunds of overpayments."
    >
      <div className="p-5">
        {update ? (
          <ActionForm action={update} submitLabel="Save refund settings" success="Saved.">
            <Field
              label="Agents' daily refund cap (USD)"
              hint="Refunds to payers that agents may make per UTC day; above it an owner decides. 0 sends every agent refund to an owner."
            >
              <input
                className={inputStyles}
                name="refundAgentDailyCapUsd"
                inputMode="decimal"
                required
                pattern="(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?"
                defaultValue={capUsd}
              />
            </Field>
            <label className="mt-4 flex items-start gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                name="autoRefundOverpayments"
                defaultChecked={autoRefundOverpayments}
                className="mt-0.5"
              />
              <span>Refund the overpaid part of a confirmed invoice to its payer automatically</span>
            </label>
          </ActionForm>
        ) : (
          <dl className="grid gap-2 text-sm">
            <div>
              <dt className="text-slate-500">Agents&apos; daily refund cap</dt>
              <dd className="font-medium text-slate-900">{capUsd} USD</dd>
            </div>
            <div>
              <dt className="text-slate-500">Automatic overpayment refunds</dt>
              <dd className="font-medium text-slate-900">{autoRefundOverpayments ? "On" : "Off"}</dd>
            </div>
          </dl>
        )}
      </div>
    </Card>
  );
}
