import Link from "next/link";

/**
 * "Sign in again and you come back here.": for what needs a sign-in within the last 10 minutes
 * (lib/http/dashboard-session.ts), the link that signs in again by email and returns to `here`.
 */
export function SignInAgain({ here }: { here: string }) {
  return (
    <>
      <Link
        className="font-medium text-brand-600 hover:underline"
        href={`/login?reauth=1&callbackUrl=${encodeURIComponent(here)}`}
      >
        Sign in again
      </Link>{" "}
      and you come back here.
    </>
  );
}
