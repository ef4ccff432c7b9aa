import type { ComponentProps } from "react";
import { Field, inputStyles } from "@/components/ui/field";

/** The organization to act for, among the signed-in member's (the OAuth consent page, agent setup). */
export function OrganizationSelect({
  organizations,
  ...select
}: { organizations: { id: string; name: string }[] } & Omit<
  ComponentProps<"select">,
  "children" | "className"
>) {
  return (
    <Field label="Organization">
      <select className={inputStyles} {...select}>
        {organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </Field>
  );
}
