"use client";

import Link from "next/link";
import { useId } from "react";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { inputStyles } from "@/components/ui/field";
import { SecretReveal } from "@/components/ui/secret-reveal";
import type { serializeWebhookEndpoint } from "@/lib/webhooks/serialize-webhook";

type Endpoint = { id: string; name: string; enabled: boolean };

/** The dashboard's server actions an endpoint's controls post to (passed in from app/). */
export type EndpointChangeActions = {
  setEnabled: FormAction<ReturnType<typeof serializeWebhookEndpoint>>;
  rotate: FormAction<{ signingSecret: string; previousSecretExpiresAt: string }>;
  remove: FormAction<{ id: string }>;
};

/** Sends an evt_test_… event of the chosen type to one endpoint. */
export function SendTestEventForm({
  action,
  endpoint,
  eventTypes,
  linkToLog = false,
}: {
  action: FormAction<{ eventId: string; type: string }>;
  endpoint: Endpoint;
  eventTypes: readonly string[];
  linkToLog?: boolean;
}) {
  const selectId = useId();
  return (
    <ActionForm
      action={action}
      submitLabel="Send test event"
      pendingLabel="Sending…"
      variant="secondary"
      className="flex w-full flex-wrap items-center gap-2 sm:w-auto"
      success={(data) => (
        <p role="status" className="w-full text-sm text-emerald-700">
          Sent <code className="font-mono text-xs">{data.eventId}</code> ({data.type}).{" "}
          {linkToLog ? (
            <Link
              className="font-medium text-brand-600 hover:underline"
              href={`/dashboard/webhooks/${endpoint.id}`}
            >
              See its delivery
            </Link>
          ) : (
            "It appears in the delivery log below."
          )}
        </p>
      )}
    >
      <input type="hidden" name="id" value={endpoint.id} />
      <label htmlFor={selectId} className="sr-only">
        Test event type
      </label>
      <div className="min-w-0 flex-1 sm:w-56 sm:flex-none">
        <select id={selectId} name="type" className={inputStyles} defaultValue="payment.confirmed">
          {eventTypes.map((type) => (
            <option key={type} value={type}>
              {type}
            </option>
          ))}
        </select>
      </div>
    </ActionForm>
  );
}

/** Enable/disable, rotate the secret and delete: the changes an endpoint can go through. */
export function EndpointActions({
  actions,
  endpoint,
}: {
  actions: EndpointChangeActions;
  endpoint: Endpoint;
}) {
  return (
    <div className="flex flex-wrap items-start gap-2">
      <ActionForm
        action={actions.setEnabled}
        submitLabel={endpoint.enabled ? "Disable" : "Enable"}
        variant="secondary"
        className="contents"
      >
        <input type="hidden" name="id" value={endpoint.id} />
        <input type="hidden" name="enabled" value={endpoint.enabled ? "false" : "true"} />
      </ActionForm>
      <ConfirmAction
        action={actions.rotate}
        label="Rotate secret"
        question="Replace the signing secret? The current one keeps signing for 24 hours."
        confirmLabel="Yes, rotate"
        fields={{ id: endpoint.id }}
        result={(data) => (
          <div className="flex w-full flex-col gap-2">
            <SecretReveal label="New signing secret" value={data.signingSecret} />
            <p className="text-sm text-slate-600">
              The previous secret keeps signing alongside the new one for 24 hours
              {data.previousSecretExpiresAt ? (
                <>
                  {" "}
                  (until <DateTime value={data.previousSecretExpiresAt} precision="seconds" />)
                </>
              ) : null}
              : update your server before then.
            </p>
          </div>
        )}
      />
      <ConfirmAction
        action={actions.remove}
        label="Delete"
        variant="ghost"
        question={`Delete “${endpoint.name}” and its delivery log?`}
        confirmLabel="Yes, delete"
        fields={{ id: endpoint.id }}
      />
    </div>
  );
}
