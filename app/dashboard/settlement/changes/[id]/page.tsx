import type { Metadata } from "next";
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
import { recentSignInMs, requireMember, signedInAt } from "@/lib/http/dashboard-session";
import { orNotFound } from "@/lib/http/or-not-found";
import { proposedByLabel } from "@/lib/settlement/announce-settlement-change";
import { getSettlementChange } from "@/lib/settlement/get-settlement-change";
import {
  cancelSettlementChangeAction,
  confirmSettlementChangeAction,
  rejectSettlementChangeAction,
} from "../../actions";

export const metadata: Metadata = { title: "Settlement wallet change" };

export default async function SettlementChangePage({ params }: { params: Promise<{ id: string }> }) {
  const member = await requireMember();
  const { id } = await params;
  const change = await orNotFound(getSettlementChange(db(), member.organization.id, id));
  const isOwner = member.role === "OWNER";
  const signedIn = await signedInAt();
  // Deciding where money goes needs a fresh sign-in: an old or stolen session cannot do it.
  const recent = signedIn !== null && Date.now() - signedIn.getTime() <= recentSignInMs;
  const open = change.status === "PROPOSED" || change.status === "SCHEDULED";
  const here = `/dashboard/settlement/changes/${change.id}`;
  const fields = { id: change.id };

  return (
    <>
      <PageHeader
        back={{ href: "/dashboard/settlement", label: "Settlement" }}
        title={`Settlement wallet change on ${networkName(change.network)}`}
        actions={<StatusBadge status={change.status} />}
      />
      <div className="flex flex-col gap-6">
        <Card title="Details">
          <DetailList
            items={[
              ["Network", networkName(change.network)],
              [
                "New address",
                change.address ? (
                  <span key="address" className="break-all font-mono text-xs">
                    {change.address}
                  </span>
                ) : (
                  "None: the network's wallet is removed"
                ),
              ],
              [
                "Wallet in force when asked",
                change.previousAddress ? (
                  <span key="previous" className="break-all font-mono text-xs">
                    {change.previousAddress}
                  </span>
                ) : (
                  "None"
                ),
              ],
              ["Asked by", `${change.proposedByName} (${proposedByLabel(change.proposedByKind)})`],
              ["From client address", change.clientAddress ?? "unknown"],
              ["Asked at", formatDateTime(change.createdAt)],
              [
                "Takes effect",
                change.status === "PROPOSED"
                  ? "Only if an owner confirms it"
                  : change.effectiveAt
                    ? formatDateTime(change.effectiveAt)
                    : "Never",
              ],
              [
                "Decided",
                change.decidedAt
                  ? `${formatDateTime(change.decidedAt)}${change.decidedByEmail ? ` by ${change.decidedByEmail}` : ""}`
                  : null,
              ],
            ]}
          />
        </Card>
        {open ? (
          <Card title="Decision">
            <div className="flex flex-col gap-3 p-5">
              {!isOwner ? (
                <ReadOnlyNote organization={member.organization.name} />
              ) : !recent ? (
                <p role="alert" className="text-sm text-amber-800">
                  Deciding where money goes needs a sign-in within the last 10 minutes.{" "}
                  <SignInAgain here={here} />
                </p>
              ) : change.status === "PROPOSED" ? (
                <div className="flex flex-wrap gap-3">
                  <ConfirmAction
                    action={confirmSettlementChangeAction}
                    label="Confirm change"
                    question={`Pay out on ${networkName(change.network)} to ${change.address ?? "no wallet"}?`}
                    confirmLabel="Yes, confirm"
                    variant="primary"
                    fields={fields}
                  />
                  <ConfirmAction
                    action={rejectSettlementChangeAction}
                    label="Reject change"
                    question="Reject this proposal? Nothing changes."
                    confirmLabel="Yes, reject"
                    fields={fields}
                  />
                </div>
              ) : (
                <ConfirmAction
                  action={cancelSettlementChangeAction}
                  label="Cancel change"
                  question="Cancel this change? The wallet in force stays."
                  confirmLabel="Yes, cancel it"
                  fields={fields}
                />
              )}
            </div>
          </Card>
        ) : null}
      </div>
    </>
  );
}
