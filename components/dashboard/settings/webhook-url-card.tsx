import Link from "next/link";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { Field, inputStyles } from "@/components/ui/field";

/** The default webhook URL (owners change it); the rest of webhooks lives on its own page. */
export function WebhookUrlCard<T>({
  webhookUrl,
  update,
}: {
  webhookUrl: string | null;
  /** The update action, for owners; absent, the URL is shown read-only. */
  update?: FormAction<T>;
}) {
  return (
    <Card title="Default webhook URL" description="Receives every event, signed with its own secret.">
      <div className="flex flex-col gap-3 p-5">
        {update ? (
          <ActionForm action={update} submitLabel="Save URL" success="Saved.">
            <Field label="URL" hint="Leave empty to stop sending to it.">
              <input
                className={inputStyles}
                type="url"
                name="webhookUrl"
                maxLength={2048}
                defaultValue={webhookUrl ?? ""}
                placeholder="https://shop.example/webhooks"
              />
            </Field>
          </ActionForm>
        ) : (
          <p className="break-all text-sm text-slate-900">{webhookUrl ?? "Not set"}</p>
        )}
        <p className="text-sm text-slate-500">
          Its signing secret, deliveries and further endpoints are under{" "}
          <Link href="/dashboard/webhooks" className="font-medium text-brand-600 hover:underline">
            Webhooks
          </Link>
          .
        </p>
      </div>
    </Card>
  );
}
