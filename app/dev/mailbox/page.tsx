import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound } from "next/navigation";
import { Card } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { devMailboxAccess, devMailboxCookie } from "@/lib/auth/dev-mailbox-access";
import { listDevEmails } from "@/lib/auth/list-dev-emails";
import { config } from "@/lib/config";
import { db } from "@/lib/db/client";
import { isDirectLocal } from "@/lib/net/client-address";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Development mailbox" };

const linkPattern = /(https?:\/\/\S+)/g;

/**
 * Sign-in emails of a start without SMTP, for a browser on this machine that opened the link with
 * the mailbox's key (the proxy trades it for a cookie: lib/http/dev-mailbox-guard.ts, checked again
 * here); absent (404) anywhere else, and through a proxy, even one on this machine.
 */
export default async function MailboxPage() {
  const cookie = (await cookies()).get(devMailboxCookie.name)?.value;
  const access = devMailboxAccess(config().email.devMailboxKey, { queryKey: null, cookie }, new Date());
  const emails =
    access.kind === "open"
      ? await listDevEmails(db(), { directLocal: isDirectLocal(await headers()) })
      : null;
  if (!emails) notFound();
  return (
    <main className="mx-auto max-w-3xl px-4 py-10">
      <PageHeader
        title="Development mailbox"
        description="Emails the service would send, shown here because no SMTP_URL is configured."
      />
      <Card>
        {emails.length === 0 ? (
          <EmptyState title="No emails yet">Ask for a sign-in link on the sign-in page.</EmptyState>
        ) : (
          <ul className="divide-y divide-slate-100">
            {emails.map((email) => (
              <li key={email.id} className="flex flex-col gap-2 px-5 py-4" data-testid="dev-email">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="text-sm font-semibold text-slate-900">{email.subject}</p>
                  <time className="text-xs text-slate-500" dateTime={email.createdAt.toISOString()}>
                    {email.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC
                  </time>
                </div>
                <p className="text-xs text-slate-500">To: {email.to}</p>
                <p className="whitespace-pre-wrap break-all text-sm text-slate-700">
                  {email.text.split(linkPattern).map((part, index) =>
                    part.startsWith("http") ? (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed text
                      <a key={index} href={part} className="font-medium text-brand-600 underline">
                        {part}
                      </a>
                    ) : (
                      part
                    ),
                  )}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </main>
  );
}
