import type { Metadata } from "next";
import Link from "next/link";
import { CopyButton } from "@/components/checkout/copy-button";
import { RefundDestination, RefundTransaction, refundAmount } from "@/components/dashboard/refund-columns";
import { ReadOnlyNote } from "@/components/dashboard/settings/read-only-note";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DetailList } from "@/components/ui/detail-list";
import { formatDateTime } from "@/components/ui/format";
import { PageHeader } from "@/components/ui/page-header";
import { SignInAgain } from "@/components/ui/sign-in-again";
import { StatusBadge } from "@/components/ui/status-badge";
import { networkName } from "@/lib/config";
import { db } from "@/lib/db/client";
import { actorOfMember, recentSignInMs, requireMember, signedInAt } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { getRefund } from "@/lib/refunds/get-refund";
import { serializeRefund } from "@/lib/refunds/serialize-refund";
import {
  cancelRefundAction,
  confirmRefundAction,
  rejectRefundAction,
  resendClaimLinkAction,
} from "../actions";

export const metadata: Metadata = { title: "Refund" };

const requesterKinds: Record<string, string> = {
  user: "an owner, in the dashboard",
  api_key: "an API key",
  agent_credential: "an agent credential",
  oauth_token: "an app connected with OAuth",
  automatic: "automatic overpayment refund",
};

const link = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600";

export default async function RefundPage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const refund = await orNotFound(getRefund(db(), member.organization.id, id));
  const isOwner = member.role === "OWNER";
  const signedIn = await signedInAt();
  // Deciding where money goes needs a fresh sign-in: an old or stolen session cannot do it.
  const recent = signedIn !== null && Date.now() - signedIn.getTime() <= recentSignInMs;
  // A member sees that a claim link is open, never the link (it moves the money); nor does an
  // owner's old session, since whoever holds the link chooses where the refund goes.
  const { claimUrl } = recent ? serializeRefund(refund, actorOfMember(member)) : { claimUrl: undefined };
  const here = `/dashboard/refunds/${refund.id}`;
  const fields = { id: refund.id };
  const amount = refundAmount(refund);
  const decided = refund.decidedByUserId
    ? await db().user.findUnique({ where: { id: refund.decidedByUserId }, select: { email: true } })
    : null;
  // Cancel is refused by the domain once a transaction is signed; pending is offered, it may lose that race.
  const cancellable = refund.status === "PENDING_CLAIM" || refund.status === "PENDING";

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/refunds", label: "Refunds" }}
        title={<span className="font-mono text-xl">{refund.id}</span>}
        actions={<StatusBadge status={refund.status} />}
      />
      <div className="flex flex-col gap-6">
        <Card title="Details">
          <DetailList
            items={[
              [
                "Amount",
                <span key="amount" data-testid="refund-amount">
                  {amount}
                </span>,
              ],
              ["Network", networkName(refund.network)],
              ["Destination", <RefundDestination key="destination" refund={refund} />],
              [
                "Claim link",
                claimUrl ? (
                  <span key="claim" className="flex flex-col gap-1">
                    <span className="flex items-center gap-2">
                      <span className="break-all font-mono text-xs" data-testid="claim-url">
                        {claimUrl}
                      </span>
                      <CopyButton value={claimUrl} label="Copy claim link" />
                    </span>
                    <span className="text-xs text-slate-600">
                      Open until {formatDateTime(refund.claimExpiresAt as Date)}
                      {refund.claimEmail ? `; emailed to ${refund.claimEmail}` : ""}.
                    </span>
                  </span>
                ) : refund.status === "PENDING_CLAIM" && refund.claimExpiresAt ? (
                  <span key="claim" className="text-xs text-slate-600" data-testid="claim-url-hidden">
                    Open until {formatDateTime(refund.claimExpiresAt)}. Only owners see the link: it pays
                    whoever enters an address.
                    {isOwner ? (
                      <>
                        {" "}
                        It is shown after a sign-in within the last 10 minutes. <SignInAgain here={here} />
                      </>
                    ) : null}
                  </span>
                ) : null,
              ],
              ["Transaction", <RefundTransaction key="tx" refund={refund} />],
              ["Reason", refund.reason],
              [
                "Waiting because",
                refund.status === "PENDING" || refund.status === "REQUIRES_APPROVAL"
                  ? refund.pendingReason
                  : null,
              ],
              ["Failed because", refund.failureReason],
              [
                "Invoice",
                <Link
                  key="invoice"
                  className={`font-mono text-xs ${link}`}
                  href={`/dashboard/invoices/${refund.invoiceId}`}
                >
                  {refund.invoiceId}
                </Link>,
              ],
              [
                "Asked by",
                `${refund.requestedByName} (${requesterKinds[refund.requestedByKind] ?? refund.requestedByKind})`,
              ],
              [
                "Decided",
                refund.decidedAt
                  ? `${formatDateTime(refund.decidedAt)}${decided ? ` by ${decided.email}` : ""}`
                  : null,
              ],
              ["Created", formatDateTime(refund.createdAt)],
              ["Updated", formatDateTime(refund.updatedAt)],
            ]}
          />
        </Card>
        {refund.status === "REQUIRES_APPROVAL" ? (
          <Card title="Decision">
            <div className="flex flex-col gap-3 p-5">
              {!isOwner ? (
                <ReadOnlyNote organization={member.organization.name} />
              ) : !recent ? (
                <p role="alert" className="text-sm text-amber-800">
                  Deciding where money goes needs a sign-in within the last 10 minutes.{" "}
                  <SignInAgain here={here} />
                </p>
              ) : (
                <div className="flex flex-wrap gap-3">
                  <ConfirmAction
                    action={confirmRefundAction}
                    label="Confirm refund"
                    question={
                      refund.destination === "CLAIM" && !refund.claimedAt
                        ? `Open a claim link for ${amount}?`
                        : `Send ${amount} to ${refund.toAddress}?`
                    }
                    confirmLabel="Yes, confirm"
                    variant="primary"
                    fields={fields}
                  />
                  <ConfirmAction
                    action={rejectRefundAction}
                    label="Reject refund"
                    question="Reject this refund? Nothing is sent."
                    confirmLabel="Yes, reject"
                    fields={fields}
                  />
                </div>
              )}
            </div>
          </Card>
        ) : cancellable ? (
          <Card title="Actions">
            <div className="flex flex-wrap gap-3 p-5">
              {!isOwner ? (
                <ReadOnlyNote organization={member.organization.name} />
              ) : (
                <>
                  {refund.status === "PENDING_CLAIM" ? (
                    <ConfirmAction
                      action={resendClaimLinkAction}
                      label="Re-send claim link"
                      question="Send a new link for another 30 days? The current link stops working."
                      confirmLabel="Yes, re-send"
                      fields={fields}
                    />
                  ) : null}
                  <ConfirmAction
                    action={cancelRefundAction}
                    label="Cancel refund"
                    question="Cancel this refund? Nothing is sent and the buyer's link stops working."
                    confirmLabel="Yes, cancel it"
                    fields={fields}
                  />
                </>
              )}
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}
