"use client";

import { useActionState, useState } from "react";
import type { BuyerActionResult } from "@/lib/http/buyer-action";
import type { PublicRefundClaim } from "@/lib/refunds/serialize-public-refund-claim";

export type RefundClaimTexts = {
  addressLabel: string;
  addressHint: string;
  confirmLabel: string;
  submit: string;
  submitting: string;
  errors: Record<
    | "addressMissing"
    | "confirmMissing"
    | "addressInvalid"
    | "addressChecksum"
    | "mismatch"
    | "used"
    | "expired"
    | "closed"
    | "rateLimited"
    | "failed",
    string
  >;
};

type Action = (
  previous: BuyerActionResult<PublicRefundClaim> | null,
  form: FormData,
) => Promise<BuyerActionResult<PublicRefundClaim>>;

type Field = "address" | "confirmAddress";

/** The server's answer as the buyer reads it: which field it concerns, in the page's language. */
function explain(
  error: { code: string; param?: string },
  texts: RefundClaimTexts,
): { field?: Field; text: string } {
  const field = error.param === "address" || error.param === "confirmAddress" ? error.param : undefined;
  const byCode: Record<string, string> = {
    parameter_missing: field === "confirmAddress" ? texts.errors.confirmMissing : texts.errors.addressMissing,
    address_invalid: texts.errors.addressInvalid,
    address_checksum: texts.errors.addressChecksum,
    address_mismatch: texts.errors.mismatch,
    claim_used: texts.errors.used,
    claim_expired: texts.errors.expired,
    claim_closed: texts.errors.closed,
    rate_limited: texts.errors.rateLimited,
  };
  return { field, text: byCode[error.code] ?? texts.errors.failed };
}

/**
 * The buyer's address, typed twice, checked on the server (checksum, equality). Inputs are
 * controlled so a refused submission keeps what was typed; each error is tied to its field.
 */
export function RefundClaimForm(props: { token: string; action: Action; texts: RefundClaimTexts }) {
  const [state, formAction, pending] = useActionState(props.action, null);
  const [values, setValues] = useState<Record<Field, string>>({ address: "", confirmAddress: "" });
  const problem = state && !state.ok ? explain(state.error, props.texts) : null;
  const input = (name: Field, label: string, hint?: string) => {
    const invalid = problem?.field === name;
    const describedBy = [hint ? `${name}-hint` : null, invalid ? `${name}-error` : null]
      .filter(Boolean)
      .join(" ");
    return (
      <div className="flex flex-col gap-1.5">
        <label htmlFor={name} className="text-sm font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${name}-hint`} className="text-xs text-slate-600 dark:text-slate-300">
            {hint}
          </p>
        ) : null}
        <input
          id={name}
          name={name}
          value={values[name]}
          onChange={(event) => setValues({ ...values, [name]: event.target.value })}
          required
          autoComplete="off"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder="0x…"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy || undefined}
          className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 placeholder:text-slate-500 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 aria-[invalid=true]:border-red-600 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:placeholder:text-slate-400 dark:aria-[invalid=true]:border-red-400"
        />
        {invalid ? (
          <p id={`${name}-error`} role="alert" className="text-sm text-red-700 dark:text-red-300">
            {problem.text}
          </p>
        ) : null}
      </div>
    );
  };
  return (
    <form action={formAction} noValidate className="flex flex-col gap-4" data-testid="refund-claim-form">
      <input type="hidden" name="token" value={props.token} />
      {input("address", props.texts.addressLabel, props.texts.addressHint)}
      {input("confirmAddress", props.texts.confirmLabel)}
      {problem && !problem.field ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {problem.text}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2 disabled:opacity-50 dark:focus-visible:ring-offset-slate-900"
      >
        {pending ? props.texts.submitting : props.texts.submit}
      </button>
    </form>
  );
}
