"use client";

import { useTransition } from "react";
import type { FormAction } from "@/components/ui/action-form";

/** Which organization the dashboard shows, for members of more than one. */
export function OrganizationSwitcher({
  current,
  organizations,
  switchOrganization,
}: {
  current: string;
  switchOrganization: FormAction<{ organizationId: string }>;
  organizations: { id: string; name: string }[];
}) {
  const [pending, startTransition] = useTransition();
  if (organizations.length === 1) {
    return (
      <span className="truncate text-sm font-semibold text-slate-900" title={organizations[0].name}>
        {organizations[0].name}
      </span>
    );
  }
  return (
    <label
      htmlFor="organization-switcher"
      className="flex min-w-0 flex-col gap-1 text-xs font-medium text-slate-500"
    >
      <span className="sr-only lg:not-sr-only">Organization</span>
      {
        <select
          id="organization-switcher"
          className="rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm font-semibold text-slate-900"
          value={current}
          disabled={pending}
          onChange={(event) => {
            const form = new FormData();
            form.set("organizationId", event.target.value);
            startTransition(async () => {
              await switchOrganization(null, form);
            });
          }}
        >
          {organizations.map((organization) => (
            <option key={organization.id} value={organization.id}>
              {organization.name}
            </option>
          ))}
        </select>
      }
    </label>
  );
}
