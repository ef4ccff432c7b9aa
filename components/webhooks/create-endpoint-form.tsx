"use client";

import Link from "next/link";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, inputStyles } from "@/components/ui/field";
import { SecretReveal } from "@/components/ui/secret-reveal";
import type { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";

/** Adds an endpoint and shows its signing secret once. */
export function CreateEndpointForm({
  action,
}: {
  action: FormAction<{ endpoint: ReturnType<typeof serializeWebhookEndpoint>; signingSecret: string }>;
}) {
  return (
    <ActionForm
      action={action}
      submitLabel="Add endpoint"
      pendingLabel="Adding…"
      success={(data) => (
        <div className="flex flex-col gap-2">
          <SecretReveal label="Signing secret" value={data.signingSecret} />
          <p className="text-sm text-slate-600">
            Your server checks each request&apos;s{" "}
            <code className="font-mono text-xs">X-Service-Signature</code> with it.{" "}
            <Link
              className="font-medium text-brand-600 hover:underline"
              href={`/dashboard/webhooks/${data.endpoint.id}`}
            >
              Open {data.endpoint.name}
            </Link>{" "}
            to send a test event and watch it arrive.
          </p>
        </div>
      )}
    >
      <div className="grid gap-4 md:grid-cols-2">
        <Field label="Name" hint="For you: what this endpoint is for.">
          <input
            className={inputStyles}
            name="name"
            required
            maxLength={255}
            placeholder="Order fulfilment"
          />
        </Field>
        <Field label="URL" hint="Where we POST events. https in production.">
          <input
            className={inputStyles}
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://shop.example/webhooks"
          />
        </Field>
        <Field
          label="Payload format"
          hint="Stripe-compatible wraps each event like a Stripe event and adds a Stripe-Signature header."
        >
          <select className={inputStyles} name="adapter" defaultValue="NONE">
            <option value="NONE">Standard JSON (NONE)</option>
            <option value="STRIPE">Stripe-compatible (STRIPE)</option>
          </select>
        </Field>
        <label className="flex items-start gap-2 self-center text-sm md:pt-6">
          <input
            type="checkbox"
            name="enabled"
            value="true"
            defaultChecked
            className="mt-0.5 size-4 rounded border-slate-300 accent-brand-600"
          />
          <span>
            <span className="font-medium text-slate-700">Enabled</span>
            <span className="block text-xs text-slate-500">Disabled endpoints receive nothing.</span>
          </span>
        </label>
      </div>
    </ActionForm>
  );
}
