/** Who is calling a merchant endpoint: the organization, the credential that proved it, and what it may do. */
export type MerchantCaller = {
  organizationId: string;
  credential: { kind: "api_key" | "agent" | "oauth"; id: string };
  access: "read" | "write";
  /** The organization's pinned REST API version (lib/api-version); absent means the latest. */
  apiVersion?: string;
};
