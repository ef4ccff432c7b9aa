import type { Organization } from "../generated/prisma/client";

/** The public shape of an organization. */
export function serializeOrganization(organization: Organization) {
  return {
    id: organization.id,
    object: "organization" as const,
    name: organization.name,
    createdAt: organization.createdAt.toISOString(),
  };
}
