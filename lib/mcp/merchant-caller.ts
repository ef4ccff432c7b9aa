// The caller principal of contract C1 until h-access's authenticateMerchant lands; the MCP route
// builds it from an API key meanwhile.
export type MerchantCaller = {
  organizationId: string;
  credential: { kind: "api_key" | "agent" | "oauth"; id: string };
  access: "read" | "write";
};
