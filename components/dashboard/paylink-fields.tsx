import { Field, inputStyles } from "@/components/ui/field";
import { pricingCurrencies } from "@/lib/money/decimal";

type Values = { name?: string; description?: string | null; amount?: string; currency?: string };

/** The inputs of a paylink, empty for a new one or filled for an edit. */
export function PaylinkFields({ values = {} }: { values?: Values }) {
  return (
    <>
      <Field label="Name" hint="Buyers see it on the payment page.">
        <input
          className={inputStyles}
          name="name"
          required
          maxLength={255}
          defaultValue={values.name}
          placeholder="Pro plan, one year"
        />
      </Field>
      <Field label="Description" hint="Optional.">
        <textarea
          className={inputStyles}
          name="description"
          rows={2}
          maxLength={1000}
          defaultValue={values.description ?? undefined}
        />
      </Field>
      <div className="grid grid-cols-[minmax(0,1fr)_7rem] gap-3">
        <Field label="Price">
          <input
            className={`${inputStyles} tabular-nums`}
            name="amount"
            required
            inputMode="decimal"
            pattern="[0-9]+(\.[0-9]+)?"
            title="A decimal amount such as 49.00"
            defaultValue={values.amount}
            placeholder="49.00"
          />
        </Field>
        <Field label="Currency">
          <select className={inputStyles} name="currency" defaultValue={values.currency ?? "USD"}>
            {Object.keys(pricingCurrencies).map((currency) => (
              <option key={currency} value={currency}>
                {currency}
              </option>
            ))}
          </select>
        </Field>
      </div>
    </>
  );
}
