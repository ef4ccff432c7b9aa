import { CopyButton } from "@/components/checkout/copy-button";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

/** The organization's name (owners rename it) and its id to copy. */
export function OrganizationCard<T>({
  organization,
  rename,
}: {
  organization: { id: string; name: string };
  /** The rename action, for owners; absent, the name is shown read-only. */
  rename?: FormAction<T>;
}) {
  return (
    <Card title="Organization">
      <div className="flex flex-col gap-5 p-5">
        {rename ? (
          <ActionForm action={rename} submitLabel="Save name" success="Saved.">
            <Field label="Name" hint="Buyers see it on payment pages.">
              <input
                className={inputStyles}
                name="name"
                required
                maxLength={255}
                defaultValue={organization.name}
              />
            </Field>
          </ActionForm>
        ) : (
          <p className="text-sm font-medium text-slate-900">{organization.name}</p>
        )}
        <div className="flex flex-col gap-1.5 text-sm">
          <span className="font-medium text-slate-700">Organization ID</span>
          <div className="flex items-center gap-2">
            <code className="min-w-0 flex-1 break-all font-mono text-xs text-slate-600">
              {organization.id}
            </code>
            <CopyButton value={organization.id} label="Copy organization ID" />
          </div>
        </div>
      </div>
    </Card>
  );
}
