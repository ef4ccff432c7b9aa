"use client";

import { type ReactNode, useActionState } from "react";
import type { ActionResult } from "@/lib/http/dashboard-session";
import { ActionError } from "./action-error";
import { type ButtonVariant, buttonStyles } from "./button-styles";

export type FormAction<T> = (previous: ActionResult<T> | null, form: FormData) => Promise<ActionResult<T>>;

/**
 * A form posting to a dashboard server action: shows the action's error next to the button,
 * or `success` (text, or a rendering of the result) once it worked.
 */
export function ActionForm<T>({
  action,
  submitLabel,
  pendingLabel = "Working…",
  variant = "primary",
  success,
  children,
  className = "flex flex-col gap-4",
}: {
  action: FormAction<T>;
  submitLabel: string;
  pendingLabel?: string;
  variant?: ButtonVariant;
  success?: ReactNode | ((data: T) => ReactNode);
  children?: ReactNode;
  className?: string;
}) {
  const [state, formAction, pending] = useActionState(action, null);
  return (
    <form action={formAction} className={className}>
      {children}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={buttonStyles[variant]} disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </button>
        {state && !state.ok ? <ActionError error={state.error} className="text-sm text-red-700" /> : null}
        {state?.ok && success && typeof success !== "function" ? (
          <p role="status" className="text-sm text-emerald-700">
            {success}
          </p>
        ) : null}
      </div>
      {state?.ok && typeof success === "function" ? success(state.data) : null}
    </form>
  );
}
