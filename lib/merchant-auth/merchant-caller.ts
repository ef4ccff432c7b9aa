/** Who is calling a merchant endpoint: the organization, the credential that proved it, and what it may do. */
export type MerchantCaller = {
  organizationId: string;
  credential: { kind: "api_key" | "agent" | "oauth"; id: string };
  access: "read" | "write";
  /**
   * The role it acts with (lib/authority/operations.ts): an API key and an agent credential act
   * for the organization (owner); an OAuth token with its approving user's current role.
   */
  role: "owner" | "member";
  /** How people recognise it: the key's, the agent's or the OAuth app's name. */
  name: string;
  /** The signed-in user behind an OAuth token. */
  userId?: string;
  /** Where the request came from (lib/net/client-address.ts): owners see it on what it asked for. */
  clientAddress?: string;
  /** The organization's pinned REST API version (lib/api-version); absent means the latest. */
  apiVersion?: string;
};
