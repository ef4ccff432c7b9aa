"use client";

import { type ReactNode, useActionState, useEffect, useRef, useState } from "react";
import { ActionError } from "./action-error";
import type { FormAction } from "./action-form";
import { type ButtonVariant, buttonStyles } from "./button-styles";

/**
 * A destructive or disruptive action behind a confirmation step: the first click asks, the
 * second (on "Yes, …") posts the form with its hidden fields.
 */
export function ConfirmAction<T>({
  action,
  label,
  question,
  confirmLabel,
  fields,
  variant = "secondary",
  result,
}: {
  action: FormAction<T>;
  label: string;
  question: ReactNode;
  confirmLabel: string;
  fields: Record<string, string>;
  variant?: ButtonVariant;
  result?: (data: T) => ReactNode;
}) {
  const [asking, setAsking] = useState(false);
  const [state, formAction, pending] = useActionState(action, null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The button that was clicked is gone; keyboard focus moves to the question's answer.
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);
  if (state?.ok && result) return <>{result(state.data)}</>;
  if (!asking) {
    return (
      <button type="button" className={buttonStyles[variant]} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <form
      action={formAction}
      className="flex flex-wrap items-center gap-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2"
    >
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <span className="text-sm text-amber-900">{question}</span>
      <button type="submit" className={buttonStyles.danger} disabled={pending} ref={confirmButton}>
        {pending ? "Working…" : confirmLabel}
      </button>
      <button type="button" className={buttonStyles.ghost} onClick={() => setAsking(false)}>
        Cancel
      </button>
      {state && !state.ok ? (
        <ActionError error={state.error} className="w-full text-sm text-red-700" />
      ) : null}
    </form>
  );
}
