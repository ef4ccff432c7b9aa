// Every public object of the API, defined once: the REST serializers, the OpenAPI document and
// the MCP tools' output schemas all use these. They import only zod, so the published agent kit
// ships them as they are (`crypto-checkout-agent/shapes`). The `id` of each is its OpenAPI
// component name.

export * from "./checkout-session";
export * from "./common";
export * from "./invoice";
export * from "./organization";
export * from "./paylink";
export * from "./recurring";
export * from "./refund";
export * from "./report";
export * from "./subscription";
export * from "./sweep";
export * from "./webhook";
