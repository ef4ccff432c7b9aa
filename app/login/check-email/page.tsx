import type { Metadata } from "next";
import Link from "next/link";
import { AuthCard } from "@/components/dashboard/auth-card";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Check your email" };

export default function CheckEmailPage() {
  return (
    <AuthCard title="Check your email">
      <p className="text-sm text-slate-600">
        We sent you a sign-in link. It works once and expires in 24 hours.
      </p>
      {config().email.devMailbox ? (
        <Link
          className="mt-4 inline-block text-sm font-medium text-brand-600 hover:underline"
          href="/dev/mailbox"
        >
          Open the local mailbox
        </Link>
      ) : null}
    </AuthCard>
  );
}
