"use client";

import Link from "next/link";
import { useState } from "react";
import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, inputStyles } from "@/components/ui/field";
import type { RefundObject } from "@/lib/refunds/serialize-refund";

const choices = [
  { value: "payer", label: "To the payer", hint: "The address the payment came from." },
  { value: "claim", label: "Claim link", hint: "The buyer enters an address on a page we host." },
  { value: "address", label: "To an address", hint: "An address you name on this network." },
] as const;

/**
 * An owner refunds an invoice: an amount in its token (empty: all that is left), where it goes,
 * and why. The destination field is "payer", "claim" or the address typed, as the API takes it.
 */
export function RefundForm(props: {
  action: FormAction<RefundObject>;
  invoiceId: string;
  token: string;
  network: string;
}) {
  const [kind, setKind] = useState<(typeof choices)[number]["value"]>("payer");
  const [address, setAddress] = useState("");
  return (
    <ActionForm
      action={props.action}
      submitLabel="Refund"
      pendingLabel="Refunding…"
      success={(refund) => (
        <p role="status" className="text-sm text-emerald-700">
          Refund {refund.id} created ({refund.status.replaceAll("_", " ")}).{" "}
          <Link href={`/dashboard/refunds/${refund.id}`} className="font-medium underline">
            Open it
          </Link>
        </p>
      )}
    >
      <input type="hidden" name="invoiceId" value={props.invoiceId} />
      <input type="hidden" name="destination" value={kind === "address" ? address : kind} />
      <Field label={`Amount in ${props.token}`} hint="Leave empty to refund all that is left.">
        <input
          name="amount"
          inputMode="decimal"
          autoComplete="off"
          className={inputStyles}
          placeholder="All"
        />
      </Field>
      <Field label="Destination" hint={choices.find((choice) => choice.value === kind)?.hint}>
        {/* Not a form field itself: the hidden `destination` above carries the choice. */}
        <select
          value={kind}
          onChange={(event) => setKind(event.target.value as typeof kind)}
          className={inputStyles}
        >
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </Field>
      {kind === "address" ? (
        <Field label={`Address on ${props.network}`}>
          <input
            value={address}
            onChange={(event) => setAddress(event.target.value)}
            autoComplete="off"
            spellCheck={false}
            className={`${inputStyles} font-mono`}
            placeholder="0x…"
            required
          />
        </Field>
      ) : null}
      <Field label="Reason (optional)" hint="Sent to the buyer with a claim link, and in refund events.">
        <textarea name="reason" maxLength={500} rows={2} className={inputStyles} />
      </Field>
    </ActionForm>
  );
}
