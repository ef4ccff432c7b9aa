import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

type MerchantDetails = {
  legalName: string | null;
  address: string | null;
  taxId: string | null;
  supportEmail: string | null;
};

/**
 * The merchant as buyers' receipts name it (and the payments report's JSON), and whether buyers
 * are emailed their receipts. Owners change them here or with the API key.
 */
export function ReceiptSettingsCard<T>({
  details,
  receiptEmails,
  update,
}: {
  details: MerchantDetails;
  receiptEmails: boolean;
  /** The update action, for owners; absent, the settings are shown read-only. */
  update?: FormAction<T>;
}) {
  // Each detail: its label, form field, hint, length and value; the form and the read-only list show them alike.
  const fields = [
    {
      label: "Legal name",
      name: "legalName",
      max: 200,
      value: details.legalName,
      hint: "As on your invoices.",
    },
    {
      label: "Address",
      name: "legalAddress",
      max: 500,
      value: details.address,
      hint: "Printed on receipts; one line each.",
    },
    { label: "Tax ID (VAT)", name: "taxId", max: 50, value: details.taxId, hint: undefined },
    {
      label: "Support email",
      name: "supportEmail",
      max: 254,
      value: details.supportEmail,
      hint: "Where buyers write with questions about a payment.",
    },
  ];
  return (
    <Card
      title="Receipts"
      description="What buyers' receipts say of you, and whether buyers who gave their email get them by email (payment confirmed, refund sent)."
    >
      <div className="p-5">
        {update ? (
          <ActionForm action={update} submitLabel="Save receipt settings" success="Saved.">
            {fields.map((field) => (
              <Field key={field.name} label={field.label} hint={field.hint}>
                {field.name === "legalAddress" ? (
                  <textarea
                    className={inputStyles}
                    name={field.name}
                    rows={3}
                    maxLength={field.max}
                    defaultValue={field.value ?? ""}
                  />
                ) : (
                  <input
                    className={inputStyles}
                    name={field.name}
                    type={field.name === "supportEmail" ? "email" : "text"}
                    maxLength={field.max}
                    defaultValue={field.value ?? ""}
                  />
                )}
              </Field>
            ))}
            <label className="mt-4 flex items-start gap-2 text-sm text-slate-700">
              <input type="checkbox" name="receiptEmails" defaultChecked={receiptEmails} className="mt-0.5" />
              <span>Email receipts to buyers who gave their email</span>
            </label>
          </ActionForm>
        ) : (
          <dl className="grid gap-2 text-sm">
            {fields.map((field) => (
              <div key={field.name}>
                <dt className="text-slate-500">{field.label}</dt>
                <dd className="font-medium whitespace-pre-line text-slate-900">{field.value ?? "Not set"}</dd>
              </div>
            ))}
            <div>
              <dt className="text-slate-500">Receipt emails to buyers</dt>
              <dd className="font-medium text-slate-900">{receiptEmails ? "On" : "Off"}</dd>
            </div>
          </dl>
        )}
      </div>
    </Card>
  );
}
