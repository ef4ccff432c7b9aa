"use client";

import { ActionForm, type FormAction } from "@/components/ui/action-form";
import { Field, inputStyles } from "@/components/ui/field";

/** Invites by email; says whether the person joined at once or was sent an invitation. */
export function InviteMemberForm({
  action,
}: {
  action: FormAction<{ kind: "member" | "invitation"; email: string }>;
}) {
  return (
    <ActionForm
      action={action}
      submitLabel="Invite"
      pendingLabel="Inviting…"
      className="flex flex-col gap-4"
      success={(result) => (
        <p role="status" className="text-sm text-emerald-700">
          {result.kind === "member"
            ? `${result.email} already had an account and is now a member.`
            : `Invitation sent to ${result.email}. They join when they first sign in.`}
        </p>
      )}
    >
      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_9rem]">
        <Field label="Email">
          <input
            className={inputStyles}
            type="email"
            name="email"
            required
            autoComplete="off"
            placeholder="teammate@company.com"
          />
        </Field>
        <Field label="Role">
          <select className={inputStyles} name="role" defaultValue="MEMBER">
            <option value="MEMBER">Member</option>
            <option value="OWNER">Owner</option>
          </select>
        </Field>
      </div>
    </ActionForm>
  );
}
