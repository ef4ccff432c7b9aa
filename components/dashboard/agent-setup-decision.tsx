"use client";

import { type FormEvent, useState } from "react";
import { OrganizationSelect } from "@/components/dashboard/organization-select";
import { ActionError } from "@/components/ui/action-error";
import { buttonStyles } from "@/components/ui/button-styles";

type Organization = { id: string; name: string };
type Setup = {
  agentName: string;
  access: "read" | "write";
  clientAddress: string;
  startedAt: string;
};

const accessInWords = {
  read: "Read only: see paylinks, payments and settings",
  write: "Read and write: also create paylinks and checkout sessions, change settings and webhooks",
} as const;

function ago(iso: string): string {
  const minutes = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 60_000));
  return minutes === 0 ? "less than a minute ago" : `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
}

async function post(path: string, body: unknown) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await response.json().catch(() => null);
  return response.ok
    ? { ok: true as const, data: json.data }
    : {
        ok: false as const,
        message: (json?.error?.message as string) ?? "That did not work. Try again.",
        signInAgain: json?.error?.code === "reauthentication_required",
      };
}

/**
 * Agent setup approval: the owner types the code their agent printed, sees who asks for what,
 * then approves (for one of their organizations) or denies.
 */
export function AgentSetupDecision({
  organizations,
  initialOrganizationId,
}: {
  organizations: Organization[];
  initialOrganizationId: string;
}) {
  const [userCode, setUserCode] = useState("");
  const [setup, setSetup] = useState<Setup | null>(null);
  const [organizationId, setOrganizationId] = useState(initialOrganizationId);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<{ message: string; signInAgain?: boolean } | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function lookUp(event: FormEvent) {
    event.preventDefault();
    setPending(true);
    const result = await post("/api/private/agent/setup/lookup", { userCode });
    setPending(false);
    setError(result.ok ? null : result);
    if (result.ok) setSetup(result.data);
  }

  async function decide(decision: "approve" | "deny") {
    setPending(true);
    const result = await post("/api/private/agent/setup/authorize", { userCode, organizationId, decision });
    setPending(false);
    if (!result.ok) setError(result);
    else if (result.data.status === "approved")
      setDone("Approved. Go back to your agent: it picks up its credential by itself.");
    else setDone("Denied. The agent gets no access.");
  }

  if (done) {
    return (
      <p role="status" className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        {done}
      </p>
    );
  }
  const alert = error ? (
    <ActionError
      error={{ message: error.message, ...(error.signInAgain ? { signInAgain: true as const } : {}) }}
      className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700"
    />
  ) : null;

  if (!setup) {
    return (
      <form onSubmit={lookUp} className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">
          Type the code your agent printed. Only type a code from an agent you started yourself: never one
          someone sent you.
        </p>
        {alert}
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          Code from your agent
          <input
            name="userCode"
            required
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={20}
            placeholder="XXXX-XXXX"
            value={userCode}
            onChange={(event) => setUserCode(event.target.value)}
            className="rounded-lg border border-slate-300 px-3 py-2 font-mono uppercase tracking-widest"
          />
        </label>
        <button type="submit" className={buttonStyles.primary} disabled={pending}>
          Continue
        </button>
      </form>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">
        An agent asks for its own credential. Approve only if you started it, from the address and at the time
        below.
      </p>
      <dl className="grid grid-cols-3 gap-x-3 gap-y-2 text-sm" data-testid="agent-setup-details">
        <dt className="text-slate-500">Agent</dt>
        <dd className="col-span-2 break-words font-medium text-slate-900">{setup.agentName}</dd>
        <dt className="text-slate-500">Started from</dt>
        <dd className="col-span-2 break-words font-mono text-slate-900">{setup.clientAddress}</dd>
        <dt className="text-slate-500">Started</dt>
        <dd className="col-span-2 text-slate-900">{ago(setup.startedAt)}</dd>
        <dt className="text-slate-500">Access</dt>
        <dd className="col-span-2 text-slate-900">{accessInWords[setup.access]}</dd>
      </dl>
      {alert}
      {organizations.length > 1 ? (
        <OrganizationSelect
          organizations={organizations}
          value={organizationId}
          onChange={(event) => setOrganizationId(event.target.value)}
        />
      ) : (
        <p className="text-sm text-slate-600">
          Organization: <strong className="font-semibold text-slate-900">{organizations[0].name}</strong>
        </p>
      )}
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
