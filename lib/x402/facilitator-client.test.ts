import { HTTPFacilitatorClient } from "@x402/core/server";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../config";
import { x402FacilitatorClient } from "./facilitator-client";

const mnemonic = "test test test test test test test test test test test junk";
const xpub =
  "xpub6Ce9NcJvTk36xtLSrJLZqE7wtgA5deCeYs7rSQtreh4cj6ByPtrg9sD7V2FNFLPnf8heNP3FGkeV9qwfzvZNSd54JoNXVsXFYSYwHsnJxqP";
const base = '[{"id": "base", "rpcUrl": "https://base.example/rpc"}]';

describe("x402FacilitatorClient", () => {
  it("speaks to SERVICE_X402_FACILITATOR_URL over HTTP, even where this process could sign", () => {
    const client = x402FacilitatorClient(
      parseConfig({
        SERVICE_X402_FACILITATOR_URL: "https://facilitator.example/",
        SERVICE_HD_MNEMONIC: mnemonic,
      }),
    );
    expect(client).toBeInstanceOf(HTTPFacilitatorClient);
    expect((client as HTTPFacilitatorClient).url).toBe("https://facilitator.example");
  });

  it("sends SERVICE_X402_FACILITATOR_TOKEN as the bearer token on every call", async () => {
    const client = x402FacilitatorClient(
      parseConfig({
        SERVICE_X402_FACILITATOR_URL: "http://127.0.0.1:4022",
        SERVICE_X402_FACILITATOR_TOKEN: "a-token-of-16-chars",
      }),
    ) as HTTPFacilitatorClient;
    for (const path of ["verify", "settle", "supported"])
      expect(await client.createAuthHeaders(path)).toEqual({
        headers: { Authorization: "Bearer a-token-of-16-chars" },
      });
  });

  it("runs the built-in facilitator where this process signs (the zero-setup start)", async () => {
    const client = x402FacilitatorClient(
      parseConfig({ SERVICE_HD_MNEMONIC: mnemonic, SERVICE_NETWORKS: base }),
    );
    expect(client).not.toBeInstanceOf(HTTPFacilitatorClient);
    expect((await client?.getSupported())?.kinds).toEqual([
      { x402Version: 2, scheme: "exact", network: "eip155:8453" },
    ]);
  });

  it.each([
    ["the web tier with only the xpub", { SERVICE_HD_XPUB: xpub, SERVICE_NETWORKS: base }],
    [
      "a web tier whose sweeper runs apart",
      { DATABASE_URL: "postgresql://db/x", SERVICE_HD_MNEMONIC: mnemonic, SERVICE_NETWORKS: base },
    ],
  ])("is undefined for %s and no facilitator URL", (_label, env) => {
    expect(x402FacilitatorClient(parseConfig(env))).toBeUndefined();
  });
});
