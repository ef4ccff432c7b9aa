import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { AuthCard } from "@/components/dashboard/auth-card";
import { SignInForm } from "@/components/dashboard/sign-in-form";
import { config } from "@/lib/config";
import { findMember } from "@/lib/http/dashboard-session";
import { sameSitePath } from "@/lib/http/same-site-path";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

// next-auth sends its errors here as ?error=…; say what happened in words.
const errors: Record<string, string> = {
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  EmailSignin: "The sign-in email could not be sent. Try again in a moment.",
  InvalidEmail: "Enter one valid email address.",
  TooManyEmails: "Too many sign-in emails were asked for. Wait a while, then try again.",
};

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<{ error?: string; callbackUrl?: string; reauth?: string }>;
}) {
  const { error, callbackUrl, reauth } = await searchParams;
  const next = sameSitePath(callbackUrl);
  // reauth: a signed-in owner proves a fresh sign-in before deciding where money goes.
  if (!reauth && (await findMember())) redirect(next);
  return (
    <AuthCard title="Sign in to your dashboard">
      {error ? (
        <p role="alert" className="mb-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {errors[error] ?? "Sign-in did not work. Try again."}
        </p>
      ) : null}
      <SignInForm callbackUrl={next} />
      <p className="mt-5 text-xs text-slate-500">
        New here? Signing in creates your organization. No password: we email you a link.
      </p>
      {config().email.devMailbox ? (
        <p className="mt-3 text-xs text-slate-500">
          Development mode: emails arrive in the{" "}
          <Link className="font-medium text-brand-600 hover:underline" href="/dev/mailbox">
            local mailbox
          </Link>{" "}
          (the first time, open it from the link printed when the service started).
        </p>
      ) : null}
    </AuthCard>
  );
}
