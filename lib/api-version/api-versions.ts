import { z } from "zod";

// Dated API versions (docs/api.md, "Versioning"). Within a version only additive changes ship: new
// endpoints, new optional request fields, new response fields, new event types and error codes. A
// change a client could notice otherwise gets a new date here, oldest first, and the column default
// of Organization.apiVersion in prisma/schema.prisma moves to it, so new organizations start on it.
export const apiVersions = ["2026-11-22", "2026-11-26"] as const;

export type ApiVersion = (typeof apiVersions)[number];

export const latestApiVersion: ApiVersion = apiVersions[apiVersions.length - 1];

/** Request header that overrides the organization's pinned version; responses echo the one used. */
export const apiVersionHeader = "X-Service-Version";

export const apiVersionField = z
  .enum(apiVersions, { error: `must be one of ${apiVersions.join(", ")}` })
  .meta({ description: "A dated API version", example: latestApiVersion });
