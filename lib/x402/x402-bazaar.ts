// x402's `bazaar` discovery extension (the x402 specification's extensions/bazaar.md): what a
// facilitator's catalogue lists of an x402 URL. The service metadata on `resource` follows its
// validation rules (printable ASCII, at most 32 characters; at most 5 tags), so no facilitator
// drops it; `info` says how to call the URL and `schema` (JSON Schema 2020-12) validates `info`.

const tags = ["payments", "checkout"];

const info = {
  input: { type: "http", method: "GET" },
  output: { type: "json", example: { object: "x402_payment", checkoutSession: { status: "COMPLETED" } } },
};

const schema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    input: {
      type: "object",
      properties: {
        type: { type: "string", const: "http" },
        method: { type: "string", enum: ["GET", "HEAD", "DELETE"] },
        queryParams: { type: "object", additionalProperties: { type: "string" } },
        headers: { type: "object", additionalProperties: { type: "string" } },
      },
      required: ["type", "method"],
      additionalProperties: false,
    },
    output: {
      type: "object",
      properties: { type: { type: "string" }, example: { type: "object" } },
      required: ["type"],
    },
  },
  required: ["input"],
};

/** The merchant's name as a bazaar `serviceName`: printable ASCII, 32 characters at most; none if nothing is left. */
function serviceName(merchantName: string): string | undefined {
  const name = merchantName
    .replace(/[^\x20-\x7e]/g, "")
    .trim()
    .slice(0, 32)
    .trim();
  return name || undefined;
}

/** The resource fields and the extension a 402 of the merchant's x402 URL carries. */
export function x402Discovery(merchantName: string) {
  const name = serviceName(merchantName);
  return {
    resource: { ...(name ? { serviceName: name } : {}), tags },
    extensions: { bazaar: { info, schema } },
  };
}
