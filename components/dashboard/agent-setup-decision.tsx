"use client";

import { useState } from "react";
import { OrganizationSelect } from "@/components/dashboard/organization-select";
import { buttonStyles } from "@/components/ui/button-styles";

type Organization = { id: string; name: string };

/** Approve or deny an agent's setup for one of the owner's organizations. */
export function AgentSetupDecision({
  userCode,
  organizations,
  initialOrganizationId,
}: {
  userCode: string;
  organizations: Organization[];
  initialOrganizationId: string;
}) {
  const [organizationId, setOrganizationId] = useState(initialOrganizationId);
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  async function decide(decision: "approve" | "deny") {
    setPending(true);
    const response = await fetch("/api/private/agent/setup/authorize", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userCode, organizationId, decision }),
    });
    const body = await response.json().catch(() => null);
    setPending(false);
    if (!response.ok) {
      setResult({ ok: false, message: body?.error?.message ?? "That did not work. Try again." });
    } else if (body.data.status === "approved") {
      setResult({
        ok: true,
        message: "Approved. Go back to your agent: it picks up its credential by itself.",
      });
    } else {
      setResult({ ok: true, message: "Denied. The agent gets no access." });
    }
  }

  if (result?.ok) {
    return (
      <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        {result.message}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {result ? (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {result.message}
        </p>
      ) : null}
      {organizations.length > 1 ? (
        <OrganizationSelect
          organizations={organizations}
          value={organizationId}
          onChange={(event) => setOrganizationId(event.target.value)}
        />
      ) : null}
      <div className="flex gap-3">
        {(
          [
            ["approve", "Approve", buttonStyles.primary],
            ["deny", "Deny", buttonStyles.secondary],
          ] as const
        ).map(([decision, label, style]) => (
          <button
            key={decision}
            type="button"
            className={style}
            disabled={pending}
            onClick={() => decide(decision)}
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}
