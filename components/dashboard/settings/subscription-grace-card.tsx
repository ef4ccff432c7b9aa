import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

/** How long an unpaid renewal keeps a subscription PAST_DUE before it is cancelled (owners change it). */
export function SubscriptionGraceCard<T>({
  graceDays,
  update,
}: {
  graceDays: number;
  /** The update action, for owners; absent, the setting is shown read-only. */
  update?: FormAction<T>;
}) {
  return (
    <Card
      title="Subscription grace period"
      description="Days a past-due subscription waits for its renewal payment before it is cancelled."
    >
      <div className="p-5">
        {update ? (
          <ActionForm action={update} submitLabel="Save grace period" success="Saved.">
            <Field label="Grace days" hint="A whole number from 0 to 30.">
              <input
                className={inputStyles}
                type="number"
                name="subscriptionGraceDays"
                required
                min={0}
                max={30}
                step={1}
                defaultValue={graceDays}
              />
            </Field>
          </ActionForm>
        ) : (
          <p className="text-sm font-medium text-slate-900">
            {graceDays} {graceDays === 1 ? "day" : "days"}
          </p>
        )}
      </div>
    </Card>
  );
}
