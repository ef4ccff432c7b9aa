import { InviteMemberForm } from "@/components/dashboard/invite-member-form";
import type { FormAction } from "@/components/ui/action-form";
import { Card } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { DateTime } from "@/components/ui/date-time";
import { humanize } from "@/components/ui/status-badge";
import type { listTeam } from "@/lib/organizations/list-team";
import { ReadOnlyNote } from "./read-only-note";

/** A person in the team list: email and role on the left, what an owner can do on the right. */
function TeamRow({
  email,
  you = false,
  detail,
  children,
}: {
  email: string;
  you?: boolean;
  detail: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 px-5 py-3">
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 gap-1 text-sm font-medium text-slate-900">
          <span className="truncate" title={email}>
            {email}
          </span>
          {/* The space keeps "email (you)" one phrase to screen readers and copy; flex gap draws it. */}
          {you ? <span className="shrink-0 font-normal text-slate-600"> (you)</span> : null}
        </p>
        <p className="text-xs text-slate-500">{detail}</p>
      </div>
      {children}
    </li>
  );
}

const count = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

type Member = Awaited<ReturnType<typeof listTeam>>["members"][number];

/**
 * What a removal does besides ending the membership: credentials end with their approver's
 * authority and their pending invitations are withdrawn. The API keys they created are revoked too,
 * unless the remover keeps them (the organization's servers may run on them): they are listed with
 * that box.
 */
function removalNote(member: Member, who: "you" | "they") {
  const { agents, apps, invitations } = member.approved;
  const revoked = [
    agents ? count(agents, "agent credential") : null,
    apps ? count(apps, "connected app") : null,
  ].filter(Boolean);
  const keys = member.apiKeys;
  return (
    <>
      {revoked.length ? ` The ${revoked.join(" and ")} ${who} approved will be revoked too.` : ""}
      {invitations ? ` The ${count(invitations, "pending invitation")} ${who} sent will be withdrawn.` : ""}
      {keys.length ? (
        <>
          {` ${who === "you" ? "You" : "They"} created ${count(keys.length, "API key")} (${keys
            .map((key) => `${key.name}, ${key.prefix}…`)
            .join("; ")}), which will be revoked too unless you keep ${keys.length === 1 ? "it" : "them"}.`}
          <label className="mt-1 flex items-center gap-2">
            <input type="checkbox" name="keepApiKeys" /> Keep {keys.length === 1 ? "it" : "them"} working
          </label>
        </>
      ) : null}
    </>
  );
}

/** Members and pending invitations; owners remove, cancel and invite. */
export function TeamCard<R, C>({
  organizationName,
  team,
  userId,
  actions,
}: {
  organizationName: string;
  team: Awaited<ReturnType<typeof listTeam>>;
  /** The signed-in user, marked "(you)". */
  userId: string;
  /** The owner's actions; absent, the team is shown read-only. */
  actions?: {
    remove: FormAction<R>;
    cancelInvitation: FormAction<C>;
    invite: FormAction<{ kind: "member" | "invitation"; email: string }>;
  };
}) {
  return (
    <Card
      title="Team"
      description="Everyone here can see and create payments. Owners also manage keys, settings and the team."
      className="lg:col-span-2"
    >
      <ul aria-label="Members" className="divide-y divide-slate-100">
        {team.members.map((m) => (
          <TeamRow
            key={m.id}
            email={m.user.email}
            you={m.user.id === userId}
            detail={
              <>
                {humanize(m.role)} · joined <DateTime value={m.createdAt} precision="date" />
              </>
            }
          >
            {actions ? (
              <ConfirmAction
                action={actions.remove}
                label="Remove"
                question={
                  <>
                    {m.user.id === userId
                      ? "You will lose access to this organization."
                      : `${m.user.email} will lose access at once.`}
                    {removalNote(m, m.user.id === userId ? "you" : "they")}
                  </>
                }
                confirmLabel="Yes, remove"
                fields={{ membershipId: m.id }}
              />
            ) : null}
          </TeamRow>
        ))}
      </ul>
      {team.invitations.length > 0 ? (
        <div className="border-t border-slate-100">
          <h3 className="px-5 pt-4 text-sm font-semibold text-slate-900">Pending invitations</h3>
          <ul aria-label="Pending invitations" className="divide-y divide-slate-100">
            {team.invitations.map((i) => (
              <TeamRow
                key={i.id}
                email={i.email}
                detail={
                  <>
                    {humanize(i.role)} · invited <DateTime value={i.createdAt} precision="date" /> · joins at
                    first sign-in
                  </>
                }
              >
                {actions ? (
                  <ConfirmAction
                    action={actions.cancelInvitation}
                    label="Cancel invitation"
                    question={`${i.email} will not join when they sign in.`}
                    confirmLabel="Yes, cancel it"
                    fields={{ invitationId: i.id }}
                  />
                ) : null}
              </TeamRow>
            ))}
          </ul>
        </div>
      ) : null}
      <div className="border-t border-slate-100 p-5">
        {actions ? (
          <>
            <h3 className="mb-3 text-sm font-semibold text-slate-900">Invite a teammate</h3>
            <InviteMemberForm action={actions.invite} />
          </>
        ) : (
          <ReadOnlyNote organization={organizationName} />
        )}
      </div>
    </Card>
  );
}
