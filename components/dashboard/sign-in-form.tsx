"use client";

import { signIn } from "next-auth/react";
import { useState } from "react";
import { buttonStyles } from "@/components/ui/button-styles";
import { Field, inputStyles } from "@/components/ui/field";

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [pending, setPending] = useState(false);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={async (event) => {
        event.preventDefault();
        setPending(true);
        const email = String(new FormData(event.currentTarget).get("email"));
        await signIn("email", { email, callbackUrl });
      }}
    >
      <Field label="Work email">
        <input
          className={inputStyles}
          type="email"
          name="email"
          required
          autoComplete="email"
          placeholder="you@company.com"
        />
      </Field>
      <button type="submit" className={buttonStyles.primary} disabled={pending}>
        {pending ? "Sending link…" : "Email me a sign-in link"}
      </button>
    </form>
  );
}
