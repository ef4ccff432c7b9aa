"use client";

import { useActionState, useState } from "react";
import type { BuyerActionResult } from "@/lib/http/buyer-action";
import type { PublicRefundClaim } from "@/lib/refunds/serialize-public-refund-claim";

export type RefundClaimTexts = {
  addressLabel: string;
  addressHint: string;
  /** What an address of the refund's network looks like, shown in its empty field ("0x…"). */
  addressPlaceholder: string;
  confirmLabel: string;
  submit: string;
  submitting: string;
  /** The emailed code's field and button, when the claim needs one. */
  code?: { label: string; hint: string; send: string; sending: string; sent: string };
  errors: Record<
    | "addressMissing"
    | "confirmMissing"
    | "addressInvalid"
    | "addressChecksum"
    | "notWallet"
    | "serviceWallet"
    | "mismatch"
    | "used"
    | "expired"
    | "closed"
    | "rateLimited"
    | "codeMissing"
    | "codeInvalid"
    | "codeExpired"
    | "locked"
    | "failed",
    string
  >;
};

type Action = (
  previous: BuyerActionResult<PublicRefundClaim> | null,
  form: FormData,
) => Promise<BuyerActionResult<PublicRefundClaim>>;

type SendCodeAction = (
  previous: BuyerActionResult<{ sentTo: string }> | null,
  form: FormData,
) => Promise<BuyerActionResult<{ sentTo: string }>>;

type Field = "address" | "confirmAddress" | "code";

const fields: Field[] = ["address", "confirmAddress", "code"];

/** The server's answer as the buyer reads it: which field it concerns, in the page's language. */
function explain(
  error: { code: string; param?: string },
  texts: RefundClaimTexts,
): { field?: Field; text: string } {
  const field = fields.find((name) => name === error.param);
  const byCode: Record<string, string> = {
    parameter_missing: field === "confirmAddress" ? texts.errors.confirmMissing : texts.errors.addressMissing,
    address_invalid: texts.errors.addressInvalid,
    address_checksum: texts.errors.addressChecksum,
    address_not_wallet: texts.errors.notWallet,
    address_is_service_wallet: texts.errors.serviceWallet,
    address_mismatch: texts.errors.mismatch,
    claim_used: texts.errors.used,
    claim_expired: texts.errors.expired,
    claim_closed: texts.errors.closed,
    rate_limited: texts.errors.rateLimited,
    code_required: texts.errors.codeMissing,
    code_invalid: texts.errors.codeInvalid,
    code_expired: texts.errors.codeExpired,
    claim_locked: texts.errors.locked,
  };
  return { field, text: byCode[error.code] ?? texts.errors.failed };
}

/**
 * The buyer's address, typed twice, checked on the server (checksum, equality). Inputs are
 * controlled so a refused submission keeps what was typed; each error is tied to its field.
 */
export function RefundClaimForm(props: {
  token: string;
  action: Action;
  /** When the buyer's email is known: emails a one-time code the claim needs. */
  sendCode?: SendCodeAction;
  texts: RefundClaimTexts;
}) {
  const [state, formAction, pending] = useActionState(props.action, null);
  const sendCode = props.sendCode ?? (async () => ({ ok: true as const, data: { sentTo: "" } }));
  const [sent, sendAction, sending] = useActionState(sendCode, null);
  const [values, setValues] = useState<Record<Field, string>>({ address: "", confirmAddress: "", code: "" });
  const sendProblem = sent && !sent.ok ? explain(sent.error, props.texts) : null;
  const problem =
    state && !state.ok
      ? explain(state.error, props.texts)
      : sendProblem && { ...sendProblem, field: "code" as const };
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
          autoComplete={name === "code" ? "one-time-code" : "off"}
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder={name === "code" ? "123456" : props.texts.addressPlaceholder}
          inputMode={name === "code" ? "numeric" : undefined}
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
  const code = props.sendCode ? props.texts.code : undefined;
  return (
    <>
      {code ? (
        // Its own form (the button below names it), so the code request sends the token alone.
        <form id="refund-send-code" action={sendAction} data-testid="refund-send-code">
          <input type="hidden" name="token" value={props.token} />
        </form>
      ) : null}
      <form action={formAction} noValidate className="flex flex-col gap-4" data-testid="refund-claim-form">
        <input type="hidden" name="token" value={props.token} />
        {input("address", props.texts.addressLabel, props.texts.addressHint)}
        {input("confirmAddress", props.texts.confirmLabel)}
        {code ? (
          <div className="flex flex-col gap-2">
            {input("code", code.label, code.hint)}
            <div className="flex flex-wrap items-center gap-3">
              <button
                type="submit"
                form="refund-send-code"
                disabled={sending}
                data-testid="refund-send-code-button"
                className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 disabled:opacity-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                {sending ? code.sending : code.send}
              </button>
              {sent?.ok ? (
                <p
                  role="status"
                  className="text-sm text-slate-700 dark:text-slate-200"
                  data-testid="refund-code-sent"
                >
                  {code.sent}
                </p>
              ) : null}
            </div>
          </div>
        ) : null}
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
    </>
  );
}
