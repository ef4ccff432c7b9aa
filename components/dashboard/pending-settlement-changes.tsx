import Link from "next/link";
import { formatDateTime } from "@/components/ui/format";
import { StatusBadge } from "@/components/ui/status-badge";
import { networkName } from "@/lib/config";
import type { SettlementChange } from "@/lib/generated/prisma/client";
import { settlementChangePath } from "@/lib/settlement/announce-settlement-change";

/** Settlement wallet changes waiting for an owner or for their time, each linking to its page. */
export function PendingSettlementChanges({ changes }: { changes: SettlementChange[] }) {
  if (changes.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      <h3 className="text-sm font-medium text-slate-900">Pending changes</h3>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {changes.map((change) => (
          <li key={change.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-2 text-sm">
            <StatusBadge status={change.status} />
            <span className="font-medium text-slate-900">{networkName(change.network)}</span>
            <code className="break-all font-mono text-xs">{change.address ?? "remove the wallet"}</code>
            <span className="text-slate-500">
              {change.status === "PROPOSED"
                ? `proposed by ${change.proposedByName}: waits for an owner`
                : `takes effect ${change.effectiveAt ? formatDateTime(change.effectiveAt) : "soon"}`}
            </span>
            <Link className="text-brand-600 hover:underline" href={settlementChangePath(change.id)}>
              Review
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
