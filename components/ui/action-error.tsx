"use client";

import { usePathname } from "next/navigation";
import type { ActionResult } from "@/lib/http/dashboard-session";
import { SignInAgain } from "./sign-in-again";

/**
 * A dashboard action's error; when the action wants a recent sign-in, with the link that signs in
 * again by email and comes back to this page.
 */
export function ActionError({
  error,
  className,
}: {
  error: Extract<ActionResult<unknown>, { ok: false }>["error"];
  className: string;
}) {
  const here = usePathname();
  return (
    <p role="alert" className={className}>
      {error.message}
      {error.signInAgain ? (
        <>
          {" "}
          <SignInAgain here={here} />
        </>
      ) : null}
    </p>
  );
}
